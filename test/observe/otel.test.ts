// websift/otel: spans from the tracing channels, recorded with the SDK's in-memory exporter: the tree
// websift.search → websift.source / websift.charge (and websift.extract → websift.page), continuing an
// incoming W3C traceparent through the HTTP bindings.

import { type Context, type ContextManager, context, createContextKey, ROOT_CONTEXT, type TracerProvider, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  type Sampler,
  SamplingDecision,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { channels } from '../../src/channels.js';
import { type WebsiftTracing, websiftTracing } from '../../src/otel/index.js';
import { scriptedSource } from '../../src/testing/index.js';
import { article, extractSetup, html } from '../extract/helpers.js';
import { harness } from '../http/harness.js';
import { gatedSources } from './gated-sources.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

let exporter: InMemorySpanExporter;
let tracing: WebsiftTracing | undefined;
const cleanup: (() => Promise<unknown>)[] = [];

function startTracing(sampler?: Sampler) {
  exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)], ...(sampler ? { sampler } : {}) });
  tracing = websiftTracing({ tracerProvider });
}

afterEach(async () => {
  tracing?.close();
  tracing = undefined;
  for (const step of cleanup.splice(0)) await step();
});

const named = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** A host's context manager whose active context is `active()`'s. */
const hostManager = (active: () => Context): ContextManager => ({
  active,
  with: (_ctx, fn, thisArg, ...args) => fn.apply(thisArg, args),
  bind: (_ctx, target) => target,
  enable() {
    return this;
  },
  disable() {
    return this;
  },
});

describe('websift/otel', () => {
  it("continues the caller's traceparent: websift.search under it, its sources and charge under the search", async () => {
    startTracing();
    const h = await harness({
      sources: [
        scriptedSource('first', { cats: { fail: 'down' } }),
        scriptedSource('second', { cats: { results: [{ title: 'Cats', url: 'https://cats.test/', snippet: 'meow' }] } }),
      ],
    });
    cleanup.push(() => h.engine.close());
    const res = await h.call('/api/search?q=cats', { headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'vendor=1' } });
    expect(res.status).toBe(200);

    const [search] = named('websift.search');
    expect(search).toBeDefined();
    expect(search!.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(search!)).toBe(PARENT_ID);
    expect(search!.attributes).toMatchObject({ 'websift.organization': 'acme', 'websift.outcome': 'success', 'websift.credits': 1 });

    const sources = named('websift.source');
    expect(
      sources.map((s) => [s.attributes['websift.source.id'], s.attributes['websift.source.role'], s.attributes['websift.source.outcome']]),
    ).toEqual([
      ['first', 'primary', 'failed'],
      ['second', 'fallback', 'answered'],
    ]);
    for (const s of sources) {
      expect(parentOf(s)).toBe(search!.spanContext().spanId);
      expect(s.spanContext().traceId).toBe(TRACE_ID);
    }
    expect(sources[0]!.status.code).toBe(2); // ERROR
    const [charge] = named('websift.charge');
    expect(parentOf(charge!)).toBe(search!.spanContext().spanId);
    expect(charge!.attributes['websift.charge.charged']).toBe(1);
  });

  it("keeps two concurrent requests' trees apart: each search under its own traceparent, with its own sources", async () => {
    startTracing();
    const gated = gatedSources();
    const h = await harness({ sources: gated.sources });
    cleanup.push(() => h.engine.close());
    const OTHER_TRACE = 'a'.repeat(32);
    const a = h.call('/api/search?q=held', { headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` } });
    await gated.holding;
    expect((await h.call('/api/search?q=quick', { headers: { traceparent: `00-${OTHER_TRACE}-${PARENT_ID}-01` } })).status).toBe(200);
    gated.release();
    expect((await a).status).toBe(200);

    const searchIn = (traceId: string) => named('websift.search').find((s) => s.spanContext().traceId === traceId)!;
    const sourcesUnder = (search: ReadableSpan) =>
      named('websift.source')
        .filter((s) => parentOf(s) === search.spanContext().spanId)
        .map((s) => [s.attributes['websift.source.id'], s.attributes['websift.source.outcome']]);
    expect(sourcesUnder(searchIn(TRACE_ID))).toEqual([
      ['slow', 'failed'],
      ['backup', 'answered'],
    ]);
    expect(sourcesUnder(searchIn(OTHER_TRACE))).toEqual([['slow', 'answered']]);
    expect(named('websift.source')).toHaveLength(3);
    expect(
      named('websift.charge')
        .map((c) => c.spanContext().traceId)
        .sort(),
    ).toEqual([OTHER_TRACE, TRACE_ID].sort());
  });

  it('makes the HTTP bindings build the request context without listening to an event per request', async () => {
    startTracing();
    expect(channels.http.hasSubscribers).toBe(true);
    for (const event of ['start', 'end', 'asyncStart', 'asyncEnd'] as const) expect(channels.http[event].hasSubscribers).toBe(false);
  });

  it("gives a call's sources and charge the call's span in the host's active context (its other values kept)", async () => {
    const HOST = createContextKey('host value');
    const hostContext = ROOT_CONTEXT.setValue(HOST, 'from the host');
    const manager = hostManager(() => hostContext);
    expect(context.setGlobalContextManager(manager)).toBe(true);
    cleanup.push(async () => context.disable());
    const seen: [string, unknown, string | undefined][] = [];
    startTracing({
      shouldSample: (ctx: Context, _traceId, name) => {
        seen.push([name, ctx.getValue(HOST), trace.getSpanContext(ctx)?.spanId]);
        return { decision: SamplingDecision.RECORD_AND_SAMPLED };
      },
    });
    const h = await harness();
    cleanup.push(() => h.engine.close());
    expect((await h.call('/api/search?q=cats')).status).toBe(200);
    const [search] = named('websift.search');
    expect(seen).toEqual([
      ['websift.search', 'from the host', undefined],
      ['websift.source', 'from the host', search!.spanContext().spanId],
      ['websift.charge', 'from the host', search!.spanContext().spanId],
    ]);
  });

  it("reads the active context once per call: its sources and charge get the call's span over the context active at its start", async () => {
    const HOST = createContextKey('host value');
    let reads = 0;
    let hostContext = ROOT_CONTEXT.setValue(HOST, 'at the start');
    const manager = hostManager(() => {
      reads++;
      const now = hostContext;
      hostContext = ROOT_CONTEXT.setValue(HOST, 'later'); // every later read sees another context
      return now;
    });
    const seen: [string, unknown][] = [];
    // A processor that reads no context (SimpleSpanProcessor's export reads the active one), so every read counted is the adapter's.
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [{ onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} }],
      sampler: {
        shouldSample: (ctx: Context, _traceId: string, name: string) => {
          seen.push([name, ctx.getValue(HOST)]);
          return { decision: SamplingDecision.RECORD_AND_SAMPLED };
        },
      },
    });
    tracing = websiftTracing({ tracerProvider });
    const h = await harness();
    cleanup.push(() => h.engine.close());
    expect(context.setGlobalContextManager(manager)).toBe(true);
    cleanup.push(async () => context.disable());
    expect((await h.call('/api/search?q=cats')).status).toBe(200);
    expect(reads).toBe(1);
    expect(seen).toEqual([
      ['websift.search', 'at the start'],
      ['websift.source', 'at the start'],
      ['websift.charge', 'at the start'],
    ]);
  });

  it('starts a new trace for a request without (or with an invalid) traceparent', async () => {
    startTracing();
    const h = await harness();
    cleanup.push(() => h.engine.close());
    await h.call('/api/search?q=cats');
    await h.call('/api/search?q=cats', { headers: { traceparent: `00-${'0'.repeat(32)}-${PARENT_ID}-01` } });
    await h.call('/api/search?q=cats', { headers: { traceparent: 'garbage' } });
    const searches = named('websift.search');
    expect(searches).toHaveLength(3);
    for (const s of searches) {
      expect(parentOf(s)).toBeUndefined();
      expect(s.spanContext().traceId).not.toBe(TRACE_ID);
    }
    expect(new Set(searches.map((s) => s.spanContext().traceId)).size).toBe(3);
  });

  it('extract: one websift.page per page under websift.extract, with host and outcome', async () => {
    startTracing();
    const s = await extractSetup({ '/ok': html(article('Spans')), '/gone': html('nope', 404) });
    cleanup.push(() => s.close());
    await s.engine.admin.createOrganization('acme', { credits: 10 });
    await s.engine.extract({ urls: [s.server.url('/ok'), s.server.url('/gone')] }, { organization: 'acme' });
    const [extract] = named('websift.extract');
    const pages = named('websift.page');
    expect(pages).toHaveLength(2);
    for (const p of pages) {
      expect(parentOf(p)).toBe(extract!.spanContext().spanId);
      expect(p.attributes['server.address']).toBe(new URL(s.server.origin).host);
    }
    expect(pages.map((p) => p.attributes['websift.page.outcome']).sort()).toEqual(['http', 'success']);
  });

  it('close() stops making spans', async () => {
    startTracing();
    tracing!.close();
    const h = await harness();
    cleanup.push(() => h.engine.close());
    await h.call('/api/search?q=cats');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('sets no attribute on a span that is not recorded (no SDK, or not sampled): nothing built for it', async () => {
    const calls: string[] = [];
    const span = {
      isRecording: () => false,
      setAttribute: () => calls.push('setAttribute'),
      setAttributes: () => calls.push('setAttributes'),
      setStatus: () => calls.push('setStatus'),
      recordException: () => calls.push('recordException'),
      end: () => calls.push('end'),
      spanContext: () => ({ traceId: TRACE_ID, spanId: PARENT_ID, traceFlags: 0 }),
    };
    const tracerProvider = { getTracer: () => ({ startSpan: () => span }) } as unknown as TracerProvider;
    tracing = websiftTracing({ tracerProvider });
    const h = await harness();
    cleanup.push(() => h.engine.close());
    expect((await h.call('/api/search?q=cats')).status).toBe(200);
    expect(calls.length).toBeGreaterThanOrEqual(3); // search, source, charge
    expect(new Set(calls)).toEqual(new Set(['end']));
  });
});
