// The egress proxy alone (no browser): it is the address policy of every connection a rendered page makes.

import http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LookupFunction, systemLookup } from '../../src/fetch/guarded-connector.js';
import { BLOCKED_HEADER, type EgressProxy, startEgressProxy } from '../../src/render/egress-proxy.js';
import { type Served, serve } from './fixture-server.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One absolute-form request through the proxy, as Chromium sends it. */
function viaProxy(proxy: EgressProxy, target: string): Promise<Answer> {
  const { hostname, port } = new URL(proxy.server);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: target, headers: { host: new URL(target).host }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT tunnel through the proxy; resolves with the proxy's status (and the socket when 200). */
function tunnel(proxy: EgressProxy, authority: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; socket: Socket }> {
  const { hostname, port } = new URL(proxy.server);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: 'CONNECT', path: authority, agent: false });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, headers: res.headers, socket }));
    req.on('error', reject);
    req.end();
  });
}

// Names the tests resolve without DNS: one public-looking name that points at loopback (rebinding).
const lookup: LookupFunction = (hostname, options, callback) => {
  if (hostname === 'rebound.test') return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  if (hostname === 'mixed.test')
    return callback(null, [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);
  return systemLookup(hostname, options, callback);
};

describe('egress proxy', () => {
  let allowed: Served;
  let other: Served;
  let proxy: EgressProxy;
  const blocked: string[] = [];

  beforeAll(async () => {
    allowed = await serve((req, res) => res.end(`allowed saw ${req.url} host=${req.headers.host}`));
    other = await serve((_req, res) => res.end('other'));
    proxy = await startEgressProxy(
      { allowPrivateNetwork: false, allowEndpoints: [`127.0.0.1:${allowed.port}`], lookup, connectTimeoutMs: 2000 },
      { onBlocked: (target, why) => blocked.push(`${target} ${why}`) },
    );
  });
  afterAll(async () => {
    await proxy.close();
    await allowed.close();
    await other.close();
  });

  it('forwards plain http to an allowed endpoint, keeping path, query and Host', async () => {
    const answer = await viaProxy(proxy, `${allowed.origin}/a/b?c=1`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(`allowed saw /a/b?c=1 host=127.0.0.1:${allowed.port}`);
  });

  it('refuses another loopback port without opening a connection to it', async () => {
    const before = other.connections;
    const answer = await viaProxy(proxy, `${other.origin}/secret`);
    expect(answer.status).toBe(403);
    expect(decodeURIComponent(String(answer.headers[BLOCKED_HEADER]))).toMatch(/loopback/);
    expect(other.connections).toBe(before);
    expect(other.requests).toEqual([]);
    expect(proxy.failureFor('127.0.0.1', other.port)).toMatchObject({ blocked: true });
  });

  it('refuses the cloud metadata address (link-local) and reports it', async () => {
    const answer = await viaProxy(proxy, 'http://169.254.169.254/latest/meta-data/');
    expect(answer.status).toBe(403);
    expect(blocked.some((b) => b.startsWith('169.254.169.254:80') && /link-local/.test(b))).toBe(true);
  });

  it('judges the addresses a name resolves to (a name pointing at loopback, a mixed answer)', async () => {
    expect((await viaProxy(proxy, `http://rebound.test:${other.port}/`)).status).toBe(403);
    expect((await viaProxy(proxy, 'http://mixed.test/')).status).toBe(403);
    expect(other.requests).toEqual([]);
  });

  it('refuses CONNECT tunnels (https, WebSockets) to blocked addresses, and opens allowed ones', async () => {
    const before = other.connections;
    const refused = await tunnel(proxy, `127.0.0.1:${other.port}`);
    expect(refused.status).toBe(403);
    refused.socket.destroy();
    const ipv6 = await tunnel(proxy, '[::1]:443');
    expect(ipv6.status).toBe(403);
    ipv6.socket.destroy();
    expect(other.connections).toBe(before);

    const open = await tunnel(proxy, `127.0.0.1:${allowed.port}`);
    expect(open.status).toBe(200);
    const reply = await new Promise<string>((resolve) => {
      let text = '';
      open.socket.on('data', (c: Buffer) => (text += c.toString()));
      open.socket.on('end', () => resolve(text));
      open.socket.write(`GET /tunnelled HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    expect(reply).toContain('allowed saw /tunnelled');
  });

  it('answers 502 with the reason when an allowed upstream cannot be reached', async () => {
    const closed = await serve((_req, res) => res.end());
    const port = closed.port;
    await closed.close();
    const local = await startEgressProxy({ allowPrivateNetwork: true, allowEndpoints: [], lookup, connectTimeoutMs: 2000 });
    try {
      const answer = await viaProxy(local, `http://127.0.0.1:${port}/`);
      expect(answer.status).toBe(502);
      expect(local.failureFor('127.0.0.1', port)).toMatchObject({ blocked: false });
    } finally {
      await local.close();
    }
  });

  it('rejects requests that are not absolute http URLs', async () => {
    const { hostname, port } = new URL(proxy.server);
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: hostname, port, path: '/relative', agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(400);
  });
});
