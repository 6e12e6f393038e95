import { createServer, request as httpRequest } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { createNodeHandler } from '../../src/http/index.js';
import { closeNodeServers, closeWithOthers, serveNodeApi } from './node-server.js';

afterEach(closeNodeServers);

const serve = serveNodeApi;

describe('createNodeHandler behind node:http', () => {
  it('serves search, usage and the same headers as the fetch handler', async () => {
    const s = await serve();
    const auth = { authorization: `Bearer ${s.key}` };
    const res = await fetch(`${s.base}/api/search?q=cats&engine=x`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('@1767225600');
    expect((await res.json()).results).toHaveLength(2);
    const post = await fetch(`${s.base}/api/search`, {
      method: 'POST',
      headers: { 'x-api-key': s.key },
      body: JSON.stringify({ q: 'cats' }),
    });
    expect((await post.json()).metadata.credits_used).toBe(0);
    const usage = await (await fetch(`${s.base}/api/usage`, { headers: auth })).json();
    expect(usage).toMatchObject({ organization: 'acme', credits: { balance: 99 }, requests: { search: 2 } });
    const bad = await fetch(`${s.base}/api/usage`, { method: 'DELETE', headers: auth });
    expect(bad.status).toBe(405);
    expect(bad.headers.get('allow')).toBe('GET');
  });

  it('answers 413 on a declared Content-Length over the limit', async () => {
    const s = await serve({ maxBodyBytes: 1024 });
    const res = await fetch(`${s.base}/api/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}` },
      body: 'x'.repeat(5000),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('payload_too_large');
  });

  it('stops reading an endless chunked body at the limit, answers 413 and closes the connection', async () => {
    const s = await serve({ maxBodyBytes: 4096 });
    const result = await new Promise<{ status: number; connection: string | undefined; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: s.port,
          method: 'POST',
          path: '/api/search',
          headers: { authorization: `Bearer ${s.key}`, 'transfer-encoding': 'chunked' },
        },
        (res) => {
          answered = true;
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, sent }));
        },
      );
      req.on('error', (e) => (answered ? undefined : reject(e)));
      const chunk = Buffer.alloc(1024, 'x');
      const pump = () => {
        // The client would send 64 MiB; the server must answer long before.
        while (!answered && sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(result.connection).toBe('close');
    expect(result.sent).toBeLessThan(8 * 1024 * 1024);
  });

  it('keeps a connection alive across requests that read their whole body', async () => {
    const s = await serve();
    const sockets = new Set<unknown>();
    const agentReq = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: s.port,
            method: 'POST',
            path: '/api/search',
            headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json', connection: 'keep-alive' },
          },
          (res) => {
            sockets.add(res.socket);
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await agentReq('{"q":"cats"}')).toBe(200);
    expect(await agentReq('{"q":')).toBe(400);
    expect(sockets.size).toBe(1);
  });

  it('turns an unexpected exception into a 500 without leaking it', async () => {
    const seen: unknown[] = [];
    const urls: string[] = [];
    const engine = createEngine({ sources: [] });
    await engine.admin.createOrganization('acme', { credits: 1 });
    const key = await engine.admin.createApiKey('acme');
    const broken = { ...engine, admin: engine.admin, rateLimit: engine.rateLimit, usage: () => Promise.reject(new Error('/etc/secret')) };
    const server = createServer(
      createNodeHandler(broken, {
        onError: (e, request) => {
          seen.push(e);
          urls.push(request.url);
        },
      }),
    );
    closeWithOthers(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/usage`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('secret');
    expect(seen).toHaveLength(1);
    // The absolute URL (built only when something reads it) is the request's: its Host and target.
    expect(urls).toEqual([`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/usage`]);
  });

  it('answers odd request lines and Host headers without crashing', async () => {
    const s = await serve();
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(s.port, '127.0.0.1', () => socket.end(text));
        let out = '';
        socket.on('data', (d) => (out += d.toString()));
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
    const badHost = await raw(
      `GET /api/search?q=cats HTTP/1.1\r\nHost: a b<c>\r\nAuthorization: Bearer ${s.key}\r\nConnection: close\r\n\r\n`,
    );
    expect(badHost).toMatch(/^HTTP\/1\.1 (200|400) /);
    const absolute = await raw('GET http://elsewhere.test/api/usage HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(absolute).toMatch(/^HTTP\/1\.1 404 /);
    // A target `new URL` would change (a dot segment) is read through the URL built from Host and target.
    const dotted = await raw(`GET /api/./usage HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.key}\r\nConnection: close\r\n\r\n`);
    expect(dotted).toMatch(/^HTTP\/1\.1 200 /);
    const head = await raw('HEAD /api/usage HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 405 /);
    expect(head).toMatch(/allow: GET/i);
    // The server is still up.
    expect((await fetch(`${s.base}/api/usage`, { headers: { authorization: `Bearer ${s.key}` } })).status).toBe(200);
  });

  it('does not patch globals', async () => {
    const before = { fetch: globalThis.fetch, Request: globalThis.Request, Response: globalThis.Response, Headers: globalThis.Headers };
    await serve();
    expect({ fetch: globalThis.fetch, Request: globalThis.Request, Response: globalThis.Response, Headers: globalThis.Headers }).toEqual(
      before,
    );
  });
});
