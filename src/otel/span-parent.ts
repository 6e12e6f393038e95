// The parent context of a call's sources, pages and charge: the active context with the call's span set,
// what `trace.setSpan(from, span)` answers, without its cost per call (the API's context copies its Map
// and makes three closures per `setValue`). Any object with getValue/setValue/deleteValue is a Context to
// the API and the SDK (they read the parent span with `trace.getSpan`, i.e. `getValue` of the span key).

import { type Context, createContextKey, INVALID_SPAN_CONTEXT, ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';

/**
 * The API's key for the span in a context: `Symbol.for` of this description (so that several copies of
 * the API share it). Checked once against `trace.setSpan`; if a later API keys it otherwise, each
 * SpanParent defers to `trace.setSpan`'s context for every read.
 */
const SPAN_KEY = createContextKey('OpenTelemetry Context Key SPAN');
const KEY_HOLDS = (() => {
  const probe = trace.wrapSpanContext({ traceId: '1'.repeat(32), spanId: '1'.repeat(16), traceFlags: 0 });
  return trace.setSpan(ROOT_CONTEXT, probe).getValue(SPAN_KEY) === probe;
})();

export class SpanParent implements Context {
  #made: Context | undefined = undefined;
  constructor(
    /** The context the span was set in (compared with the active one to reuse this parent). */
    readonly from: Context,
    readonly span: Span,
  ) {}

  getValue(key: symbol): unknown {
    if (KEY_HOLDS) return key === SPAN_KEY ? this.span : this.from.getValue(key);
    return this.#context().getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return this.#context().setValue(key, value);
  }

  deleteValue(key: symbol): Context {
    return this.#context().deleteValue(key);
  }

  /** The API's own context for the same values, made when one derived from this is asked for. */
  #context(): Context {
    if (this.#made === undefined) this.#made = trace.setSpan(this.from, this.span);
    return this.#made;
  }
}

/**
 * A SpanParent over the API's non-recording span (the no-op tracer's kind), kept for the process's life, as
 * src/channels.ts keeps a context of each kind: both live only while a call runs, and with none alive at a
 * full GC their hidden classes (reached through constructor transitions, held weakly) died and V8 threw
 * away the optimized code that checks them (the API's `startSpan` and `getSpanContext`, `getValue`, the
 * constructor, the adapter's source and charge readers: "weak objects", every round of the bench) and
 * compiled it again (docs/benchmarks.md, "Observability", obs10). Made with `wrapSpanContext`, not a tracer:
 * no span is started, no processor sees it.
 */
export const SPAN_PARENT_KEEPER = new SpanParent(ROOT_CONTEXT, trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
