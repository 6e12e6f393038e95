// The body limit at its default (64 KiB) against a real node:http server in a child process: a request
// must never take the process down (an uncaught exception ends the child, which the test sees).

import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/http/options.js';

let child: ChildProcess;
let stderr = '';
let port = 0;
let key = '';

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/node-server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
  ({ port, key } = JSON.parse(line) as { port: number; key: string });
});
afterAll(() => {
  child.kill();
});

/** POSTs `size` bytes to /api/search, with a Content-Length or chunked; the status, or 0 on a dropped connection. */
function post(size: number, chunked: boolean, withKey: boolean): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(size) };
    if (withKey) headers['authorization'] = `Bearer ${key}`;
    let answered = false;
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/search', headers }, (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => (answered ? undefined : resolve(0)));
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (!answered && sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

async function serving(): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${port}/api/usage`, { headers: { authorization: `Bearer ${key}` } });
  return res.status === 200;
}

const SIZES = [DEFAULT_MAX_BODY_BYTES + 1, 66_000, 70_000, 100_000, 2_000_000];

describe('request body over the default limit, node:http', () => {
  it.each(SIZES)('%i bytes: 413 declared or chunked, and the process keeps serving', async (size) => {
    expect(await post(size, false, true)).toBe(413);
    expect(await serving()).toBe(true);
    expect(await post(size, true, true)).toBe(413);
    expect(await serving()).toBe(true);
    // Without a key: a declared size is refused from the header alone; a chunked body is never read.
    expect(await post(size, false, false)).toBe(413);
    expect(await post(size, true, false)).toBe(401);
    expect(await serving()).toBe(true);
    expect(child.exitCode).toBeNull();
    expect(stderr).toBe('');
  });

  it('a body of exactly the limit is read and judged as JSON', async () => {
    expect(await post(DEFAULT_MAX_BODY_BYTES, false, true)).toBe(400);
    expect(await serving()).toBe(true);
  });
});
