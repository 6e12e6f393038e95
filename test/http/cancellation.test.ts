// A client that goes away cancels the engine call: both bindings hand the engine a signal that aborts
// on disconnect, the reply is not written, and nothing is reported as a server error.

import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { createFetchHandler, createNodeHandler } from '../../src/http/index.js';
import { ManualClock, scriptedSource } from '../../src/testing/index.js';
import type { CallContext, Engine } from '../../src/types.js';

const servers: Server[] = [];
const clocks: ManualClock[] = [];
afterEach(async () => {
  // Time out whatever the hanging source still holds.
  for (const clock of clocks.splice(0)) await clock.advance(600_000);
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

/** The real engine (a source that hangs on `slow`), wrapped to record the context of each call. */
async function recordingEngine() {
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  clocks.push(clock);
  const engine = createEngine({ sources: [scriptedSource('s', { slow: { hang: true } })], clock, rateLimit: false });
  await engine.admin.createOrganization('acme', { credits: 100 });
  const key = await engine.admin.createApiKey('acme');
  const calls: CallContext[] = [];
  let called = () => {};
  const started = new Promise<void>((r) => (called = r));
  const record = <T>(ctx: CallContext, run: () => Promise<T>): Promise<T> => {
    calls.push(ctx);
    called();
    // The engine contract: a call rejects with the signal's reason once it aborts.
    return Promise.race([run(), abortOf(ctx.signal)]);
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

function abortOf(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return;
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
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
