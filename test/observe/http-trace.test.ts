// The HTTP bindings' websift:http trace as the API handler publishes it itself (no traced() closures nor
// reaction per request): the events in traced()'s order with what each shows, whether the reply comes after an
// await or before any, or the handler fails; the endpoint named from the same look-up that routes the request;
// and the request's start shared by the subscribers that time it (the access log's, websift/metrics).

import { afterEach, describe, expect, it } from 'vitest';
import { channels, type HttpTraceContext, notedRequestStart, noteRequestStart } from '../../src/channels.js';
import { createRequestLog } from '../../src/cli/request-log.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { createApiHandler } from '../../src/http/api-handler.js';
import type { FetchHandlerOptions } from '../../src/http/options.js';
import { requestIdOf } from '../../src/http/request-id.js';
import { websiftMetrics } from '../../src/metrics/index.js';
import { scriptedSource } from '../../src/testing/index.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/** Every websift:http event as published: its name, and what the context showed then. */
function recordHttp() {
  const seen: { event: string; status: number | undefined; result: unknown; error: unknown; organization: string | undefined }[] = [];
  const handlers = EVENTS.map((event) => {
    const handler = (m: unknown) => {
      const c = m as HttpTraceContext & { result?: unknown };
      seen.push({ event, status: c.status, result: c.result, error: c.error, organization: c.organization });
    };
    channels.http[event].subscribe(handler);
    return () => channels.http[event].unsubscribe(handler);
  });
  cleanup.push(() => {
    for (const off of handlers) off();
  });
  return seen;
}

async function setup(options: FetchHandlerOptions = {}) {
  const engine = createEngine({
    rateLimit: false,
    sources: [scriptedSource('steady', { cats: { results: [{ title: 'Cats', url: 'https://cats.test/', snippet: 'meow' }] } })],
  });
  cleanup.push(() => engine.close());
  await engine.admin.createOrganization('acme', { credits: 10 });
  const key = await engine.admin.createApiKey('acme');
  const handle = createApiHandler(engine, options);
  const request = (target: string, headers: Record<string, string> = {}, method = 'GET') => ({
    method,
    target,
    url: `http://127.0.0.1${target}`,
    headers: { get: (name: string) => headers[name] ?? null },
    body: null,
  });
  return { engine, key, handle, request };
}

describe('websift:http', () => {
  it("publishes traced()'s events in its order: the status and result set by asyncEnd, before the caller's await resumes", async () => {
    const { key, handle, request } = await setup();
    const seen = recordHttp();
    const replied = handle(request('/api/search?q=cats', { authorization: `Bearer ${key}` }));
    // start and end are published as the handler returns; the settlement after the answer's awaits.
    expect(seen.map((s) => s.event)).toEqual(['start', 'end']);
    expect(seen[1]).toMatchObject({ status: undefined, result: undefined });
    const reply = await replied;
    expect(reply.status).toBe(200);
    expect(seen.map((s) => s.event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(seen[3]).toEqual({ event: 'asyncEnd', status: 200, result: reply, error: undefined, organization: 'acme' });
  });

  it('publishes the settlement of an answer made before any await (404, 401) after end, as traced() did', async () => {
    const { handle, request } = await setup();
    const seen = recordHttp();
    for (const [target, status] of [
      ['/nowhere', 404],
      ['/api/usage', 401],
    ] as const) {
      seen.length = 0;
      const reply = await handle(request(target));
      expect(reply.status).toBe(status);
      expect(seen.map((s) => s.event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
      // end shows no status yet: the settlement is applied after it, never before.
      expect(seen[1]!.status).toBeUndefined();
      expect(seen[3]).toMatchObject({ status, result: reply });
    }
  });

  it('publishes error, asyncStart and asyncEnd when the handler fails (a failing clock), before or after an await', async () => {
    const failure = new Error('clock broke');
    let calls = 0;
    const { key, handle, request } = await setup({
      // The first read (the answer's start) fails in the first case; the second (an error's timing) in the other.
      clock: {
        now: () => {
          if (++calls === fail) throw failure;
          return Date.now();
        },
      },
    });
    let fail = 1;
    const seen = recordHttp();
    await expect(handle(request('/api/search?q=cats', { authorization: `Bearer ${key}` }))).rejects.toBe(failure);
    expect(seen.map((s) => s.event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(seen[2]).toMatchObject({ error: failure, status: undefined, result: undefined });
    // After an await: an invalid key is looked up, then the 401's timing reads the clock.
    seen.length = 0;
    calls = 0;
    fail = 2;
    await expect(handle(request('/api/usage', { authorization: 'Bearer wrong' }))).rejects.toBe(failure);
    expect(seen.map((s) => s.event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  });

  it("enters a store an APM bound to websift:http's start around the request (tracePromise), with the same events", async () => {
    const { AsyncLocalStorage } = await import('node:async_hooks');
    const { key, handle, request } = await setup();
    const store = new AsyncLocalStorage<string>();
    channels.http.start.bindStore(store, (c) => (c as HttpTraceContext).requestId);
    cleanup.push(() => channels.http.start.unbindStore(store));
    const inSearch: (string | undefined)[] = [];
    const onSearch = () => inSearch.push(store.getStore());
    channels.search.start.subscribe(onSearch);
    cleanup.push(() => channels.search.start.unsubscribe(onSearch));
    const seen = recordHttp();
    const reply = await handle(request('/api/search?q=cats', { authorization: `Bearer ${key}`, 'x-request-id': 'req-store' }));
    expect(reply.status).toBe(200);
    expect(inSearch).toEqual(['req-store']);
    expect(seen.map((s) => s.event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(seen[3]).toMatchObject({ status: 200, result: reply });
  });

  it('names the endpoint from the look-up that routes the request: trailing slashes, health paths, the base path', async () => {
    const cases: [FetchHandlerOptions, string, string, number][] = [
      [{}, '/api/search', '/api/search', 401],
      [{}, '/api/search//', '/api/search', 401],
      [{}, '/api/usage/', '/api/usage', 401],
      [{}, '/api/searchx', 'other', 404],
      [{}, '/', 'other', 404],
      [{}, '/healthz', 'other', 404], // health routes not asked for
      [{ health: true }, '/healthz', '/healthz', 200],
      [{ health: true }, '/readyz', '/readyz', 200],
      [{ health: true }, '/healthz/', '/healthz', 404], // named by its endpoint, not served
      [{ basePath: '/v1' }, '/v1/api/usage', '/api/usage', 401],
      [{ basePath: '/v1' }, '/v1/api/usage/', '/api/usage', 401],
      [{ basePath: '/v1' }, '/api/usage', 'other', 404],
      [{ basePath: '/v1' }, '/v1', 'other', 404],
      [{ basePath: '/v1' }, '/v1/', 'other', 404],
      [{ basePath: '/v1', health: true }, '/v1/healthz', '/healthz', 200],
      [{ basePath: '/v1', health: true }, '/healthz', 'other', 404],
    ];
    const seen: [string, string, number | undefined][] = [];
    const onEnd = (m: unknown) => {
      const c = m as HttpTraceContext;
      seen.push([c.path, c.endpoint, c.status]);
    };
    channels.http.asyncEnd.subscribe(onEnd);
    cleanup.push(() => channels.http.asyncEnd.unsubscribe(onEnd));
    for (const [options, path, endpoint, status] of cases) {
      const { handle, request } = await setup(options);
      seen.length = 0;
      const reply = await handle(request(path));
      expect([path, reply.status]).toEqual([path, status]);
      expect(seen).toEqual([[path, endpoint, status]]);
    }
  });

  it("reads the trace context headers onto the context, and the request's own id", async () => {
    const { handle, request } = await setup();
    const seen: HttpTraceContext[] = [];
    const onStart = (m: unknown) => seen.push(m as HttpTraceContext);
    channels.http.start.subscribe(onStart);
    cleanup.push(() => channels.http.start.unsubscribe(onStart));
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await handle(request('/nowhere?x=1', { traceparent, tracestate: 'a=b', 'x-request-id': 'req-1' }, 'POST'));
    await handle(request('/nowhere'));
    expect({ ...seen[0] }).toMatchObject({
      requestId: 'req-1',
      method: 'POST',
      path: '/nowhere',
      endpoint: 'other',
      traceparent,
      tracestate: 'a=b',
    });
    expect(seen[1]).toMatchObject({ traceparent: undefined, tracestate: undefined });
  });
});

describe("a request's start, shared", () => {
  it('websift/metrics times a request from the start noted on its context (one clock read for every subscriber)', async () => {
    const { handle, request } = await setup();
    // Noted before metrics' own start handler runs (as the access log does, subscribed first): 40 s ago.
    const early = (m: unknown) => noteRequestStart(m as HttpTraceContext, performance.now() - 40_000);
    channels.http.start.subscribe(early);
    cleanup.push(() => channels.http.start.unsubscribe(early));
    const metrics = websiftMetrics({ processMetrics: false });
    cleanup.push(() => metrics.close());
    await handle(request('/nowhere'));
    const text = await metrics.text();
    // 40 s is above every bucket but +Inf: timed from the noted start, not from a clock read of metrics' own.
    expect(text).toContain('websift_http_request_duration_seconds_bucket{le="30",endpoint="other"} 0');
    expect(text).toContain('websift_http_request_duration_seconds_bucket{le="+Inf",endpoint="other"} 1');
  });

  it('websift/metrics alone: the bindings read the clock once the start is published (no start listener of its own), before the work', async () => {
    const { handle, request } = await setup();
    const metrics = websiftMetrics({ processMetrics: false });
    cleanup.push(() => metrics.close());
    expect(channels.http.start.hasSubscribers).toBe(false);
    expect(channels.http.asyncEnd.hasSubscribers).toBe(true);
    const atStart: (number | undefined)[] = [];
    const atEnd: (number | undefined)[] = [];
    const onStart = (m: unknown) => atStart.push(notedRequestStart(m as HttpTraceContext));
    const onEnd = (m: unknown) => atEnd.push(notedRequestStart(m as HttpTraceContext));
    let started = 0;
    // A start listener that notes nothing: the start is read after it, as the request's work begins.
    const onStarted = () => {
      started = performance.now();
    };
    channels.http.start.subscribe(onStart);
    channels.http.start.subscribe(onStarted);
    channels.http.asyncEnd.subscribe(onEnd);
    cleanup.push(() => {
      channels.http.start.unsubscribe(onStart);
      channels.http.start.unsubscribe(onStarted);
      channels.http.asyncEnd.unsubscribe(onEnd);
    });
    await handle(request('/nowhere'));
    expect(atStart).toEqual([undefined]);
    expect(atEnd).toHaveLength(1);
    expect(atEnd[0]).toBeGreaterThanOrEqual(started);
    expect(await metrics.text()).toContain('websift_http_request_duration_seconds_bucket{le="0.005",endpoint="other"} 1');
  });

  it("with the access log and websift/metrics on, one clock read for the start: the log's (the context reads none of its own)", async () => {
    const { handle, request } = await setup();
    const metrics = websiftMetrics({ processMetrics: false });
    cleanup.push(() => metrics.close());
    const requestLog = createRequestLog({ format: 'json', stream: { write: () => {} }, say: () => {} });
    cleanup.push(() => requestLog.close());
    const req = { method: 'GET', url: '/nowhere', headers: {} };
    const res = { headersSent: true, statusCode: 404, getHeader: () => undefined };
    await handle(request('/nowhere')); // warmed: anything read once per process is read now
    const real = performance.now;
    let reads = 0;
    performance.now = function (this: Performance) {
      reads++;
      return real.call(this);
    };
    let reply: Promise<unknown> | undefined;
    try {
      const entry = requestLog.open(req as never, res as never, () => {
        reply = handle(request('/nowhere'));
      });
      await reply;
      requestLog.done(entry);
    } finally {
      performance.now = real;
    }
    // The log's open and its line's duration, metrics' end: a 404 calls no source nor ledger.
    expect(reads).toBe(3);
  });

  for (const withMetrics of [false, true])
    it(`the access log notes the time it opened the request's record as its start${withMetrics ? ', over the one metrics asked for' : ''}`, async () => {
      const { handle, request } = await setup();
      if (withMetrics) {
        const metrics = websiftMetrics({ processMetrics: false });
        cleanup.push(() => metrics.close());
      }
      const requestLog = createRequestLog({ format: 'json', stream: { write: () => {} }, say: () => {} });
      cleanup.push(() => requestLog.close());
      const starts: (number | undefined)[] = [];
      const after = (m: unknown) => starts.push(notedRequestStart(m as HttpTraceContext));
      channels.http.start.subscribe(after); // after the log's
      cleanup.push(() => channels.http.start.unsubscribe(after));
      const req = { method: 'GET', url: '/nowhere', headers: {} };
      const res = { headersSent: true, statusCode: 404, getHeader: () => undefined };
      let entered = 0;
      let reply: Promise<unknown> | undefined;
      const opened = performance.now();
      requestLog.open(req as never, res as never, () => {
        entered = performance.now();
        reply = handle(request('/nowhere'));
      });
      await reply;
      expect(starts).toHaveLength(1);
      expect(starts[0]).toBeGreaterThanOrEqual(opened);
      expect(starts[0]).toBeLessThanOrEqual(entered);
    });
});

describe("the access log's request id", () => {
  it('every id the bindings accept is JSON as it is between quotes (the log writes it without escaping)', () => {
    const accepted: string[] = [];
    for (let code = 0; code < 0x3000; code++) {
      const id = `a${String.fromCharCode(code)}b`;
      if (requestIdOf(id) === id) accepted.push(id);
    }
    expect(accepted.length).toBeGreaterThan(60); // letters, digits and ._~:/+=@-
    for (const id of accepted) expect(JSON.stringify(id)).toBe(`"${id}"`);
    const made = requestIdOf(null);
    expect(JSON.stringify(made)).toBe(`"${made}"`);
  });

  it("writes the bindings' id in a line that parses, whatever it holds of what they accept", async () => {
    const { handle, request } = await setup();
    const lines: string[] = [];
    const requestLog = createRequestLog({ format: 'json', stream: { write: (line: string) => lines.push(line) }, say: () => {} });
    cleanup.push(() => requestLog.close());
    const id = 'Az09._~:/+=@-';
    const req = { method: 'GET', url: '/nowhere', headers: {} };
    const res = { headersSent: true, statusCode: 404, getHeader: () => 'header-id' };
    let reply: Promise<unknown> | undefined;
    const entry = requestLog.open(req as never, res as never, () => {
      reply = handle(request('/nowhere', { 'x-request-id': id }));
    });
    await reply;
    requestLog.done(entry);
    expect(JSON.parse(lines[0]!)).toMatchObject({ request_id: id, path: '/nowhere', status: 404 });
  });
});
