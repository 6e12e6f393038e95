// `websift serve` bounds what a client can hold without finishing a request: idle connections, the
// number of connections, slow headers and slow bodies (issue 32, item 4). Real sockets to a real server.

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverLimits } from '../../src/cli/commands/serve.js';
import { DROP_REPORT_MS, type RunningServer, reportDrops, startServer } from '../../src/cli/server.js';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from '../../src/cli/server-limits.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { scriptedSource } from '../../src/testing/index.js';
import type { Engine } from '../../src/types/index.js';
import { mainCaptured } from './in-process.js';
import { ROOT, startCli, tempDb, waitForLine } from './run-cli.js';

const flags = (values: Record<string, string> = {}) => ({ values, positionals: [] });

interface RawConnection {
  socket: Socket;
  /** Resolves when the server closed it (or it failed), with what the server sent. */
  closed: Promise<string>;
}

/** A raw TCP connection that sends nothing until told to. */
async function openRaw(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  const closed = new Promise<string>((resolve) => {
    socket.once('close', () => resolve(received));
    socket.once('error', () => {});
  });
  await once(socket, 'connect');
  return { socket, closed };
}

/** Whether `promise` settles within `ms` (a generous bound proving "no hang", never a timing claim). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([promise.then(() => true), late]);
  clearTimeout(timer);
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('websift serve: the connection limits at their defaults', () => {
  it('are the ones docs/cli.md states, from flags, else the environment, else the defaults', () => {
    expect(DEFAULT_SERVER_LIMITS).toEqual({
      maxConnections: 1000,
      idleTimeoutMs: 5_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
    });
    const docs = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    expect(docs).toContain('| `--max-connections N` | `WEBSIFT_MAX_CONNECTIONS` | 1,000 |');
    expect(docs).toContain('| `--idle-timeout SECONDS` | `WEBSIFT_IDLE_TIMEOUT` | 5 |');
    expect(docs).toContain('| `--header-timeout SECONDS` | `WEBSIFT_HEADER_TIMEOUT` | 10 |');
    expect(docs).toContain('| `--request-timeout SECONDS` | `WEBSIFT_REQUEST_TIMEOUT` | 30 |');

    expect(serverLimits(flags(), {})).toEqual(DEFAULT_SERVER_LIMITS);
    const env = { WEBSIFT_MAX_CONNECTIONS: '50', WEBSIFT_IDLE_TIMEOUT: '2', WEBSIFT_HEADER_TIMEOUT: '3', WEBSIFT_REQUEST_TIMEOUT: '4.5' };
    expect(serverLimits(flags(), env)).toEqual({ maxConnections: 50, idleTimeoutMs: 2000, headersTimeoutMs: 3000, requestTimeoutMs: 4500 });
    expect(serverLimits(flags({ 'max-connections': '7', 'idle-timeout': '0.5' }), env)).toMatchObject({
      maxConnections: 7,
      idleTimeoutMs: 500,
    });
  });

  it('a bad limit is a usage error naming where it came from', async () => {
    expect(() => serverLimits(flags({ 'max-connections': '0' }), {})).toThrow('--max-connections must be between 1 and 1000000, got 0');
    expect(() => serverLimits(flags(), { WEBSIFT_IDLE_TIMEOUT: 'soon' })).toThrow(
      'environment variable WEBSIFT_IDLE_TIMEOUT must be a number of seconds',
    );
    expect(() => serverLimits(flags({ 'header-timeout': '60' }), {})).toThrow('must not be longer than the request timeout');
    const res = await mainCaptured(['serve', '--idle-timeout', '0', '--db', tempDb()]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--idle-timeout must be a number of seconds/);
  });

  it('a real `websift serve` closes 200 connections that never send a request, while a request on a new one is answered', async () => {
    const child = startCli(['serve', '--port', '0', '--db', tempDb()]);
    const exited = once(child, 'exit');
    try {
      const [, url] = await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const idle = await Promise.all(Array.from({ length: 200 }, () => openRaw(url!)));
      const answer = await fetch(`${url}/api/usage`); // no key: 401, but answered
      expect(answer.status).toBe(401);
      // Closed at the 5 s idle timeout, before the 10 s header timeout could have closed them (which
      // node:http also applies, later) — the bound separates the two, with room for a loaded machine.
      expect(await settlesWithin(Promise.all(idle.map((c) => c.closed)), 9_500)).toBe(true);
      expect((await Promise.all(idle.map((c) => c.closed))).every((sent) => sent === '')).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});

describe('startServer: connection limits (small configured values)', () => {
  let engine: Engine;
  let key: string;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    engine = createEngine({ sources: [scriptedSource('primary', {})], router: { retries: 0 } });
    await engine.admin.createOrganization('acme', { credits: 10 });
    key = await engine.admin.createApiKey('acme');
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close(0)));
    await engine.close();
  });

  async function serve(limits: Partial<ServerLimits>): Promise<{ url: string; log: string[] }> {
    const log: string[] = [];
    const server = await startServer({ engine, host: '127.0.0.1', port: 0, limits, log: (line) => log.push(line) });
    servers.push(server);
    return { url: server.url, log };
  }

  it('closes connections that never send a request after the idle timeout, and kept-alive ones after their reply', async () => {
    // Header and request timeouts far away: only the idle timeout can close these within the bound.
    const { url } = await serve({ idleTimeoutMs: 300, headersTimeoutMs: 60_000, requestTimeoutMs: 120_000 });
    const idle = await Promise.all(Array.from({ length: 50 }, () => openRaw(url)));
    expect(await settlesWithin(Promise.all(idle.map((c) => c.closed)), 20_000)).toBe(true);

    // A connection that was answered is kept alive, then closed after the same idle time.
    const used = await openRaw(url);
    used.socket.write(`GET /api/usage HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    const sent = await used.closed;
    expect(sent).toMatch(/^HTTP\/1\.1 200 /);
    expect(sent).toMatch(/keep-alive/i);
  });

  it('refuses connections over the cap; a legitimate request succeeds beside the held ones and once one is free', async () => {
    const { url, log } = await serve({ maxConnections: 20, idleTimeoutMs: 60_000 });
    const held = await Promise.all(Array.from({ length: 19 }, () => openRaw(url)));
    // Under the cap, a legitimate request is answered (it takes the 20th place).
    const first = await fetch(`${url}/api/usage`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } });
    expect(first.status).toBe(200);
    held.push(await openRaw(url));
    await sleep(100); // let the server accept the 20th before the 21st arrives
    const over = await openRaw(url);
    // The 21st is closed by the server without a byte, whatever it sends.
    over.socket.write('GET /api/usage HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await settlesWithin(over.closed, 10_000)).toBe(true);
    expect(await over.closed).toBe('');
    // A held connection goes away: the next request gets its place.
    held.pop()!.socket.destroy();
    await sleep(100);
    const next = await fetch(`${url}/api/usage`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } });
    expect(next.status).toBe(200);
    for (const c of held) c.socket.destroy();
    expect(log.some((line) => / 200 \d+ms$/.test(line))).toBe(true);
  });

  it('logs refused connections once per interval with their count, not once each', () => {
    vi.useFakeTimers();
    try {
      const log: string[] = [];
      const dropped = reportDrops(1000, (line) => log.push(line));
      for (let i = 0; i < 500; i++) dropped();
      expect(log).toEqual([]);
      vi.advanceTimersByTime(DROP_REPORT_MS);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatch(/refused 500 connection\(s\): 1000 already open \(--max-connections\)$/);
      dropped();
      vi.advanceTimersByTime(DROP_REPORT_MS);
      expect(log[1]).toMatch(/refused 1 connection\(s\)/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cuts a request body trickled past the request timeout with 408 and closes the connection; nothing is charged', async () => {
    const { url } = await serve({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
    const c = await openRaw(url);
    const body = JSON.stringify({ urls: ['https://example.test/'] }).padEnd(2000, ' ');
    c.socket.write(
      `POST /api/crawl HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // One byte every 100 ms: 200 s to send it all.
    let i = 0;
    const trickle = setInterval(() => {
      if (!c.socket.destroyed && i < body.length) c.socket.write(body[i++]!);
    }, 100);
    try {
      expect(await settlesWithin(c.closed, 20_000)).toBe(true);
      expect(await c.closed).toMatch(/^HTTP\/1\.1 408 /);
      expect(i).toBeLessThan(body.length / 2);
    } finally {
      clearInterval(trickle);
    }
    const usage = await (await fetch(`${url}/api/usage`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(usage.credits).toEqual({ balance: 10, used: 0 });
  });

  it('cuts headers trickled past the header timeout with 408', async () => {
    const { url } = await serve({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
    const c = await openRaw(url);
    const head = `GET /api/usage HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n`.padEnd(4000, 'X');
    let i = 0;
    const trickle = setInterval(() => {
      if (!c.socket.destroyed && i < head.length) c.socket.write(head[i++]!);
    }, 50);
    try {
      expect(await settlesWithin(c.closed, 20_000)).toBe(true);
      expect(await c.closed).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
    }
  });
});
