// A malformed Host header only names the server: it must never turn a request into a 500. Sent over a
// raw socket, since HTTP clients normalise Host.

import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { createNodeHandler } from '../../src/http/index.js';
import { scriptedSource } from '../../src/testing/index.js';
import { RESULTS } from './harness.js';

let server: Server;
let port = 0;
let key = '';
const reported: unknown[] = [];

beforeAll(async () => {
  const engine = createEngine({ sources: [scriptedSource('s', { cats: RESULTS })], rateLimit: false });
  await engine.admin.createOrganization('acme', { credits: 100 });
  key = await engine.admin.createApiKey('acme');
  server = createServer(createNodeHandler(engine, { onError: (e) => reported.push(e) }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

const status = (reply: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(reply)?.[1] ?? 0);

describe('malformed Host headers (node:http)', () => {
  it.each(['a:b', '[', ']', '::', 'x:99999', '[::1', 'a%zz', 'a b'])('Host %j is answered, never as a 500', async (host) => {
    const withKey = await raw(
      `GET /api/search?q=cats HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect([200, 400]).toContain(status(withKey));
    const withoutKey = await raw(`GET /api/usage HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect([400, 401]).toContain(status(withoutKey));
    expect(reported).toEqual([]);
  });

  it.each(['x/y', 'x?y', 'x#y', 'u@x', 'x\\y'])('Host %j does not change the path the request names', async (host) => {
    const reply = await raw(
      `GET /api/search?q=cats HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect([200, 400]).toContain(status(reply));
    expect(reported).toEqual([]);
  });

  it('a well-formed Host with a port or an IPv6 literal is served', async () => {
    for (const host of ['example.test:8080', '[::1]:80', '127.0.0.1']) {
      const reply = await raw(
        `GET /api/search?q=cats HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
      );
      expect(status(reply)).toBe(200);
    }
  });
});
