// The notes of a traced call's source calls and settlement (src/channels.ts, `readCallWork`): websift's own
// subscribers (metrics, otel, the request log) read them instead of websift:source/charge, so with only
// them on neither channel is traced; an APM listening to those channels still gets every event, and
// nothing is counted or spanned twice; a note made after its call ended is still read, once.

import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { CallTrace, type CallTraceContext, channels, noteAttempt, noteCharge, readCallWork, traced } from '../../src/channels.js';
import { createRequestLog } from '../../src/cli/request-log.js';
import { websiftMetrics } from '../../src/metrics/index.js';
import { websiftTracing } from '../../src/otel/index.js';
import { scriptedSource } from '../../src/testing/index.js';
import type { SearchSource } from '../../src/types/index.js';
import { harness } from '../http/harness.js';
import { sample } from './samples.js';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** websift's three subscribers, as `websift serve --metrics` with an OpenTelemetry SDK runs them. */
function websiftsThree() {
  const registry = new Registry();
  open.push(websiftMetrics({ registry, processMetrics: false }));
  const exporter = new InMemorySpanExporter();
  open.push(websiftTracing({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) }));
  open.push(createRequestLog({ format: 'json', stream: { write: () => {} }, say: () => {} }));
  const named = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
  return { registry, named };
}

/** `first` fails after 20 ms of real time (the harness' clock is manual: no attempt timeout), `second` answers. */
const FAIL_THEN_ANSWER: SearchSource[] = [
  {
    id: 'first',
    search: async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('down');
    },
  },
  scriptedSource('second', { cats: { results: [{ title: 'Cats', url: 'https://cats.test/', snippet: 'meow' }] } }),
];

const ms = (t: ReadableSpan['startTime']) => t[0] * 1000 + t[1] / 1e6;
const duration = (span: ReadableSpan) => ms(span.endTime) - ms(span.startTime);

type Note = [name: string, start: number, end: number];
/** The times the notes carry, and the call's start and end on the same clock (performance.now()). */
function noteTimes(reads: { times?: boolean } = {}) {
  const times = { attempts: [] as Note[], charges: [] as Note[], call: [] as number[] };
  const onCall = () => times.call.push(performance.now());
  channels.search.start.subscribe(onCall);
  channels.search.asyncEnd.subscribe(onCall);
  const stop = readCallWork({
    ...reads,
    attempt: (_call, source, _attempt, _role, _outcome, start, end) => times.attempts.push([source, start, end]),
    charge: (_call, kind, _reserved, _charged, _error, start, end) => times.charges.push([kind, start, end]),
  });
  open.push({
    close() {
      channels.search.start.unsubscribe(onCall);
      channels.search.asyncEnd.unsubscribe(onCall);
      stop();
    },
  });
  return times;
}

describe('call notes', () => {
  it("with websift's metrics, otel and request log on, nobody listens to websift:source or websift:charge, and all is counted and spanned", async () => {
    const { registry, named } = websiftsThree();
    const times = noteTimes();
    expect(channels.source.hasSubscribers).toBe(false);
    expect(channels.charge.hasSubscribers).toBe(false);
    const h = await harness({ sources: FAIL_THEN_ANSWER });
    open.push(h.engine);
    expect((await h.call('/api/search?q=cats')).status).toBe(200);
    expect(channels.source.hasSubscribers).toBe(false);
    expect(channels.charge.hasSubscribers).toBe(false);

    const text = await registry.metrics();
    expect(sample(text, 'websift_source_calls_total{source="first",outcome="failed",role="primary"}')).toBe(1);
    expect(sample(text, 'websift_source_calls_total{source="second",outcome="answered",role="fallback"}')).toBe(1);
    expect(sample(text, 'websift_credits_charged_total{kind="search"}')).toBe(1);
    const [search] = named('websift.search');
    const sources = named('websift.source');
    const [charge] = named('websift.charge');
    expect(sources.map((s) => [s.attributes['websift.source.id'], s.attributes['websift.source.outcome']])).toEqual([
      ['first', 'failed'],
      ['second', 'answered'],
    ]);
    // Made at each one's end with its own start and end (a span's times are the SDK's conversion of them).
    for (const span of [...sources, charge!]) expect(span.parentSpanContext?.spanId).toBe(search!.spanContext().spanId);
    expect(sources.map(duration)).toEqual(times.attempts.map(([, s, e]) => expect.closeTo(e - s, 3)));
    expect(duration(charge!)).toBeCloseTo(times.charges[0]![2] - times.charges[0]![1], 3);
    // Those times, read on the monotonic clock: within the call, in order, the primary's 20 ms from its start.
    const [[, s1, e1], [, s2, e2]] = times.attempts as [Note, Note];
    const [[, s3, e3]] = times.charges as [Note];
    expect([times.call[0]!, s1, e1, s2, e2, s3, e3, times.call[1]!]).toEqual(
      [times.call[0]!, s1, e1, s2, e2, s3, e3, times.call[1]!].sort((a, b) => a - b),
    );
    expect(e1 - s1).toBeGreaterThanOrEqual(15);
  });

  it('takes no clock reads for the notes when no reader wants their times (websift/metrics alone), and takes them once one does', async () => {
    const registry = new Registry();
    open.push(websiftMetrics({ registry, processMetrics: false })); // its reader: times: false
    const untimed = noteTimes({ times: false });
    const h = await harness({ sources: FAIL_THEN_ANSWER });
    open.push(h.engine);
    expect((await h.call('/api/search?q=cats')).status).toBe(200);
    expect([...untimed.attempts, ...untimed.charges]).toEqual([
      ['first', 0, 0],
      ['second', 0, 0],
      ['search', 0, 0],
    ]);
    expect(sample(await registry.metrics(), 'websift_source_calls_total{source="second",outcome="answered",role="fallback"}')).toBe(1);
    const timed = noteTimes(); // a reader that reads the times (otel's)
    const fresh = await harness({ sources: FAIL_THEN_ANSWER }); // the first's answer is cached
    open.push(fresh.engine);
    expect((await fresh.call('/api/search?q=cats')).status).toBe(200);
    for (const [, start, end] of [...timed.attempts, ...timed.charges]) {
      expect(start).toBeGreaterThan(0);
      expect(end).toBeGreaterThanOrEqual(start);
    }
    expect(timed.attempts).toHaveLength(2);
  });

  it('an APM listening to websift:source and websift:charge still gets every event; metrics and otel count and span each once', async () => {
    const { registry, named } = websiftsThree();
    const seen: string[] = [];
    const onSource = (m: unknown) => {
      const c = m as { source: string; role: string; outcome: string; call?: CallTraceContext };
      seen.push(`source ${c.source} ${c.role} ${c.outcome} in ${c.call?.kind}`);
    };
    const onCharge = (m: unknown) => {
      const c = m as { kind: string; reserved: number; charged: number; call?: CallTraceContext };
      seen.push(`charge ${c.kind} ${c.reserved} ${c.charged} in ${c.call?.kind}`);
    };
    channels.source.asyncEnd.subscribe(onSource);
    channels.charge.asyncEnd.subscribe(onCharge);
    open.push({
      close() {
        channels.source.asyncEnd.unsubscribe(onSource);
        channels.charge.asyncEnd.unsubscribe(onCharge);
      },
    });
    const h = await harness({ sources: FAIL_THEN_ANSWER });
    open.push(h.engine);
    expect((await h.call('/api/search?q=cats')).status).toBe(200);
    expect(seen).toEqual([
      'source first primary failed in search',
      'source second fallback answered in search',
      'charge search 1 1 in search',
    ]);

    const text = await registry.metrics();
    expect(sample(text, 'websift_source_calls_total{source="first",outcome="failed",role="primary"}')).toBe(1);
    expect(sample(text, 'websift_source_calls_total{source="second",outcome="answered",role="fallback"}')).toBe(1);
    expect(sample(text, 'websift_credits_charged_total{kind="search"}')).toBe(1);
    expect(named('websift.source')).toHaveLength(2);
    expect(named('websift.charge')).toHaveLength(1);
  });

  it("reads a note made after its call's end (a late attempt or settlement): counted and spanned once, under the call", async () => {
    const { registry, named } = websiftsThree();
    let call: CallTraceContext | undefined;
    await traced(
      channels.search,
      () => new CallTrace('search', 'acme', undefined),
      async (context) => {
        call = context;
        return 'answer';
      },
      (context) => {
        context.outcome = 'success'; // as the engine's calls end: outcome and credits filled in
        context.credits = 0;
      },
    );
    const [search] = named('websift.search');
    expect(search).toBeDefined(); // the call ended: its span is exported
    const start = performance.now();
    noteAttempt(call!, 'late', 2, 'hedge', 'cancelled', start, start + 1);
    noteCharge(call!, 'search', 3, 3, undefined, start + 1, start + 2);

    const text = await registry.metrics();
    expect(sample(text, 'websift_source_calls_total{source="late",outcome="cancelled",role="hedge"}')).toBe(1);
    expect(sample(text, 'websift_credits_charged_total{kind="search"}')).toBe(3);
    const sources = named('websift.source');
    const charges = named('websift.charge');
    expect(sources).toHaveLength(1);
    expect(charges).toHaveLength(1);
    expect(sources[0]!.parentSpanContext?.spanId).toBe(search!.spanContext().spanId);
    expect(charges[0]!.parentSpanContext?.spanId).toBe(search!.spanContext().spanId);
    expect(sources[0]!.attributes).toMatchObject({
      'websift.source.id': 'late',
      'websift.source.attempt': 2,
      'websift.source.outcome': 'cancelled',
    });
    expect(charges[0]!.attributes).toMatchObject({ 'websift.charge.reserved': 3, 'websift.charge.charged': 3 });
  });

  it('spans a failed settlement as websift:charge did: the exception recorded, an error status, charged 0; metrics count nothing', async () => {
    const { registry, named } = websiftsThree();
    const call = new CallTrace('extract', 'acme', undefined);
    const start = performance.now();
    noteCharge(call, 'extract', 2, undefined, new Error('ledger down'), start, start + 1);
    const [charge] = named('websift.charge');
    expect(charge!.status).toEqual({ code: 2, message: 'ledger down' });
    expect(charge!.events.map((e) => e.name)).toEqual(['exception']);
    expect(charge!.attributes).toMatchObject({ 'websift.charge.kind': 'extract', 'websift.charge.charged': 0 });
    expect(sample(await registry.metrics(), 'websift_credits_charged_total{kind="extract"}')).toBeUndefined();
  });
});
