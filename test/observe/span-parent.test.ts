// SpanParent (src/otel/span-parent.ts): a call's span over the context it was active in, read by the API
// and the SDK exactly as `trace.setSpan(from, span)` would be.

import { createContextKey, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { SPAN_PARENT_KEEPER, SpanParent } from '../../src/otel/span-parent.js';

const span = trace.wrapSpanContext({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 });
const other = trace.wrapSpanContext({ traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: 1 });
const HOST = createContextKey('host value');
const MORE = createContextKey('more');

describe('SpanParent', () => {
  it("keeps one alive over a span of the no-op tracer's kind, with the keys and prototypes of those the adapter makes", () => {
    // The kept instance holds their hidden classes through a full GC with no call in flight (docs/benchmarks.md, obs10).
    const noop = trace.getTracerProvider().getTracer('t').startSpan('s');
    const made = new SpanParent(ROOT_CONTEXT, noop);
    expect(Object.getPrototypeOf(SPAN_PARENT_KEEPER)).toBe(Object.getPrototypeOf(made));
    expect(Reflect.ownKeys(SPAN_PARENT_KEEPER)).toEqual(Reflect.ownKeys(made));
    expect(Object.getPrototypeOf(SPAN_PARENT_KEEPER.span)).toBe(Object.getPrototypeOf(noop));
    expect(Reflect.ownKeys(SPAN_PARENT_KEEPER.span)).toEqual(Reflect.ownKeys(noop));
  });

  it("answers the span, and every other key from the context it was made from, as trace.setSpan's context does", () => {
    const from = trace.setSpan(ROOT_CONTEXT.setValue(HOST, 'h'), other);
    const parent = new SpanParent(from, span);
    const api = trace.setSpan(from, span);
    expect(trace.getSpan(parent)).toBe(span);
    expect(trace.getSpanContext(parent)).toEqual(span.spanContext());
    for (const key of [HOST, MORE]) expect(parent.getValue(key)).toBe(api.getValue(key));
    expect(parent.getValue(HOST)).toBe('h');
  });

  it('derives contexts holding its span and values, itself unchanged', () => {
    const parent = new SpanParent(ROOT_CONTEXT.setValue(HOST, 'h'), span);
    const more = parent.setValue(MORE, 1);
    expect(trace.getSpan(more)).toBe(span);
    expect([more.getValue(HOST), more.getValue(MORE)]).toEqual(['h', 1]);
    expect(parent.getValue(MORE)).toBeUndefined();
    const less = parent.deleteValue(HOST);
    expect(trace.getSpan(less)).toBe(span);
    expect(less.getValue(HOST)).toBeUndefined();
    expect(parent.getValue(HOST)).toBe('h');
    expect(trace.getSpan(trace.deleteSpan(parent))).toBeUndefined();
  });
});
