// A client that goes away cancels the engine call: both bindings hand the engine a signal that aborts
// on disconnect, the reply is not written, and nothing is reported as a server error.

import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { createFetchHandler, createNodeHandler } from '../../src/http/index.js';
import { ManualClock, scriptedSource, startPageServer } from '../../src/testing/index.js';
import type { CallContext, Engine } from '../../src/types/index.js';

const servers: Server[] = [];
const clocks: ManualClock[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  // Time out whatever the hanging source still holds.
  for (const clock of clocks.splice(0)) await clock.advance(600_000);
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

/** The real engine (a source that hangs on `slow`), wrapped to record the context of each call. */
async function recordingEngine() {
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  clocks.push(clock);
  const engine = createEngine({ sources: [scriptedSource('s', { slow: { hang: true } })], clock, rateLimit: false });
  engines.push(engine);
  await engine.admin.createOrganization('acme', { credits: 100 });
  const key = await engine.admin.createApiKey('acme');
  const calls: CallContext[] = [];
  let called = () => {};
  const started = new Promise<void>((r) => (called = r));
  const record = <T>(ctx: CallContext, run: () => Promise<T>): Promise<T> => {
    calls.push(ctx);
    called();
    return run();
  };
  const wrapped: Engine = {
    ...engine,
    admin: engine.admin,
    search: (params, ctx) => record(ctx, () => engine.search(params, ctx)),
    extract: (params, ctx) => record(ctx, () => engine.extract(params, ctx)),
    usage: (ctx) => record(ctx, () => engine.usage(ctx)),
  };
  return { engine: wrapped, key, calls, started };
}

const aborted = (signal: AbortSignal) =>
  signal.aborted ? Promise.resolve() : new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));

describe('client disconnect cancels the engine call', () => {
  it('node:http: the signal aborts when the client goes away; the reply is not written and nothing is reported', async () => {
    const { engine, key, calls, started } = await recordingEngine();
    const reported: unknown[] = [];
    const server = createServer(createNodeHandler(engine, { onError: (e) => reported.push(e) }));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;

    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/search?q=slow', headers: { authorization: `Bearer ${key}` } });
    req.on('error', () => {});
    req.end();
    await started;
    const signal = calls[0]!.signal!;
    expect(signal.aborted).toBe(false);
    req.destroy();
    await aborted(signal);
    // Still serving, and the cancelled call was no server error.
    const res = await fetch(`http://127.0.0.1:${port}/api/usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(calls[1]!.signal!.aborted).toBe(false);
    expect(reported).toEqual([]);
  });

  it('node:http: a request answered normally never aborts its signal', async () => {
    const { engine, key, calls } = await recordingEngine();
    const server = createServer(createNodeHandler(engine));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/usage`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } });
    expect(res.status).toBe(200);
    await res.text();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls[0]!.signal!.aborted).toBe(false);
  });

  it('node:http: the requests of one kept-alive connection share its signal (built once per connection); another connection gets its own', async () => {
    const { engine, key, calls } = await recordingEngine();
    const server = createServer(createNodeHandler(engine));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const usage = (a: Agent | false) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/api/usage', agent: a, headers: { authorization: `Bearer ${key}` } });
        req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode!)));
        req.on('error', reject);
        req.end();
      });
    expect([await usage(agent), await usage(agent), await usage(false)]).toEqual([200, 200, 200]);
    agent.destroy();
    const [first, second, other] = calls.map((c) => c.signal!);
    expect(first).toBe(second);
    expect(other).not.toBe(first);
    expect([first!.aborted, other!.aborted]).toEqual([false, false]);
  });

  it('node:http: a kept-alive connection gets one close listener from the handler, on its socket; its responses get none', async () => {
    const { engine, key } = await recordingEngine();
    const handler = createNodeHandler(engine);
    const seen: { socket: number; response: number }[] = [];
    const server = createServer((req, res) => {
      const before = { socket: req.socket.listenerCount('close'), response: res.listenerCount('close') };
      handler(req, res);
      seen.push({ socket: req.socket.listenerCount('close') - before.socket, response: res.listenerCount('close') - before.response });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const usage = () =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/api/usage', agent, headers: { authorization: `Bearer ${key}` } });
        req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode!)));
        req.on('error', reject);
        req.end();
      });
    expect([await usage(), await usage(), await usage()]).toEqual([200, 200, 200]);
    agent.destroy();
    expect(seen).toEqual([
      { socket: 1, response: 0 },
      { socket: 0, response: 0 },
      { socket: 0, response: 0 },
    ]);
  });

  it('node:http: after a client went away, the next request gets a signal that is not aborted', async () => {
    const { engine, key, calls, started } = await recordingEngine();
    const server = createServer(createNodeHandler(engine));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/search?q=slow', headers: { authorization: `Bearer ${key}` } });
    req.on('error', () => {});
    req.end();
    await started;
    req.destroy();
    await aborted(calls[0]!.signal!);
    const res = await fetch(`http://127.0.0.1:${port}/api/usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(calls[1]!.signal!.aborted).toBe(false);
  });

  it('fetch handler: the request signal is the call signal; an aborted request is answered without a 500', async () => {
    const { engine, key, calls, started } = await recordingEngine();
    const reported: unknown[] = [];
    const handler = createFetchHandler(engine, { onError: (e) => reported.push(e) });
    const client = new AbortController();
    const pending = handler(
      new Request('http://websift.test/api/search', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: JSON.stringify({ q: 'slow' }),
        signal: client.signal,
      }),
    );
    await started;
    expect(calls[0]!.signal!.aborted).toBe(false);
    client.abort();
    expect(calls[0]!.signal!.aborted).toBe(true);
    const res = await pending;
    expect(res.status).not.toBe(500);
    expect(reported).toEqual([]);
  });
});

describe('client disconnect reaches the work in progress (real engine, node:http)', () => {
  async function serveEngine(engine: Engine) {
    engines.push(engine);
    await engine.admin.createOrganization('acme', { credits: 100 });
    const key = await engine.admin.createApiKey('acme');
    const reported: unknown[] = [];
    const server = createServer(createNodeHandler(engine, { onError: (e) => reported.push(e) }));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { key, reported, port: (server.address() as AddressInfo).port };
  }

  /** Sends a request and destroys the connection once `started` resolves. */
  async function leaveDuring(
    port: number,
    options: { method: string; path: string; key: string; body?: string },
    started: Promise<unknown>,
  ) {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: options.method,
      path: options.path,
      headers: { authorization: `Bearer ${options.key}` },
    });
    req.on('error', () => {});
    req.end(options.body);
    await started;
    req.destroy();
  }

  it('search: the source call in progress is aborted', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00Z');
    clocks.push(clock);
    let sourceSignal: AbortSignal | undefined;
    let called = () => {};
    const started = new Promise<void>((r) => (called = r));
    const hanging = scriptedSource('s', () => ({ hang: true }));
    const spy = {
      ...hanging,
      search: (q: Parameters<typeof hanging.search>[0], ctx: Parameters<typeof hanging.search>[1]) => {
        sourceSignal = ctx.signal;
        called();
        return hanging.search(q, ctx);
      },
    };
    const engine = createEngine({ sources: [spy], clock, rateLimit: false });
    const s = await serveEngine(engine);
    await leaveDuring(s.port, { method: 'GET', path: '/api/search?q=slow', key: s.key }, started);
    // No clock advance: only the disconnect can end the source call.
    await aborted(sourceSignal!);
    const usage = await engine.usage({ organization: 'acme' });
    expect(usage.credits.balance).toBe(100);
    expect(s.reported).toEqual([]);
  });

  it('crawl: the page server sees its connection closed long before the extract deadline', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00Z');
    clocks.push(clock);
    let pageRequested = () => {};
    const requested = new Promise<void>((r) => (pageRequested = r));
    let pageClosed = () => {};
    const closed = new Promise<void>((r) => (pageClosed = r));
    const pages = await startPageServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      // A page whose body never comes: only a cancelled fetch closes this connection.
      '/slow.html': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body><p>');
        req.socket.once('close', pageClosed);
        pageRequested();
        return new Promise<void>(() => {});
      },
    });
    try {
      const engine = createEngine({ sources: [], clock, rateLimit: false, allowPrivateNetwork: true });
      const s = await serveEngine(engine);
      const leftAt = Date.now();
      await leaveDuring(
        s.port,
        { method: 'POST', path: '/api/crawl', key: s.key, body: JSON.stringify({ urls: [pages.url('/slow.html')] }) },
        requested,
      );
      await closed;
      // The extract deadline is 30 s (on a clock that never moves here); the disconnect ends it at once.
      expect(Date.now() - leftAt).toBeLessThan(5_000);
      expect(s.reported).toEqual([]);
    } finally {
      await pages.close();
    }
  });
});
