// The node handler counts each connection's unanswered requests: a socket that closes with one
// unanswered aborts the connection's signal (the calls still running), and only then. A request whose
// handling failed (the reply never made: the handler drops the connection) is over too, so it must not
// stay counted: the close it causes would abort a signal an earlier, answered call still holds.

import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { createNodeHandler } from '../../src/http/index.js';
import { abortConnection } from '../../src/http/node-handler.js';
import { ManualClock } from '../../src/testing/index.js';
import type { CallContext, Engine } from '../../src/types/index.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An engine with organization `acme` and a key of it. */
async function acme(): Promise<{ engine: Engine; key: string }> {
  const engine = createEngine({ clock: new ManualClock('2026-03-01T12:00:00Z'), rateLimit: false });
  closers.push(() => engine.close());
  await engine.admin.createOrganization('acme', { credits: 1 });
  return { engine, key: await engine.admin.createApiKey('acme') };
}

/**
 * `handler` served on a loopback port, its connections and their closes as they open, and a GET /api/usage with `key` over one
 * kept-alive connection: the reply's status, or 'dropped' when the connection was dropped.
 */
async function served(handler: ReturnType<typeof createNodeHandler>, key: string) {
  const sockets: Socket[] = [];
  /** Each connection's close, listened to as it opens (before the handler's own listener). */
  const closed: Promise<void>[] = [];
  const server = createServer(handler);
  server.on('connection', (socket: Socket) => {
    sockets.push(socket);
    closed.push(new Promise((r) => socket.once('close', () => r())));
  });
  closers.push(() => new Promise((r) => server.close(r)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  closers.push(async () => agent.destroy());
  const usage = () =>
    new Promise<number | 'dropped'>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/api/usage', agent, headers: { authorization: `Bearer ${key}` } });
      req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode!)));
      req.on('error', () => resolve('dropped'));
      req.end();
    });
  return { sockets, closed, usage };
}

describe('node handler: unanswered requests per connection', () => {
  it('a request whose handling failed is not left counted: the connection closing aborts nothing', async () => {
    const { engine, key } = await acme();
    const calls: CallContext[] = [];
    const recording: Engine = { ...engine, admin: engine.admin, usage: (ctx) => (calls.push(ctx), engine.usage(ctx)) };
    // The handler's clock fails on demand: its answer then rejects, and the handler drops the connection.
    let clockFails = false;
    const clock = {
      now: () => {
        if (clockFails) throw new Error('clock broken');
        return Date.parse('2026-03-01T12:00:00Z');
      },
    };
    const { closed, usage } = await served(createNodeHandler(recording, { clock }), key);

    expect(await usage()).toBe(200); // answered: its call holds the connection's signal
    clockFails = true;
    expect(await usage()).toBe('dropped'); // same connection: its handling fails, the connection is dropped
    expect(closed).toHaveLength(1);
    await closed[0]; // the handler's close listener on that socket has run too (registered after ours, same event)
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal!.aborted).toBe(false);
  });

  it('a connection whose calls were aborted (abortConnection) gives its next request a signal of its own, not aborted', async () => {
    const { engine, key } = await acme();
    const signals: AbortSignal[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    // The first usage call waits on the gate (unanswered while the connection's calls are aborted).
    const recording: Engine = {
      ...engine,
      admin: engine.admin,
      usage: async (ctx) => {
        signals.push(ctx.signal!);
        if (signals.length === 1) await gate;
        return engine.usage(ctx);
      },
    };
    const { sockets, usage } = await served(createNodeHandler(recording), key);

    const first = usage();
    while (signals.length === 0) await new Promise((r) => setTimeout(r, 5));
    abortConnection(sockets[0]!, new Error('server closing'));
    expect(signals[0]!.aborted).toBe(true);
    release();
    expect(await first).not.toBe('dropped'); // answered, not dropped
    expect(await usage()).toBe(200); // the same connection
    expect(sockets).toHaveLength(1);
    expect(signals).toHaveLength(2);
    expect(signals[1]).not.toBe(signals[0]);
    expect(signals[1]!.aborted).toBe(false);
  });
});
