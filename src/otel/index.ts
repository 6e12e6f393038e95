// websift/otel: OpenTelemetry spans from the engine's tracing channels (src/channels.ts): `websift.search`
// and `websift.extract`, each with its `websift.source` calls, `websift.page` pages and `websift.charge`
// as children (sources and charge from the notes of the traced call, `readCallWork`, not from their
// channels). `@opentelemetry/api` is the only OpenTelemetry package imported (an optional peer): the
// host brings the SDK and exporter. Parents are found from the contexts themselves, which name their
// enclosing call (`call`) and HTTP request (`request`), so no context manager nor AsyncLocalStorage is
// needed (on Node 20 one turns on promise hooks process-wide: it made a search cost half again). A request
// through the HTTP bindings that carries a W3C `traceparent` (and `tracestate`) continues that trace;
// a call made otherwise is a child of the active context (the host's, when it has a context manager).

import type { Channel } from 'node:diagnostics_channel';
import {
  type Context,
  createTraceState,
  context as otelContext,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import {
  type CallTraceContext,
  channels,
  claimSlot,
  type HttpTraceContext,
  type PageTraceContext,
  readCallWork,
  releaseSlot,
} from '../channels.js';
import { SPAN_PARENT_KEEPER, SpanParent } from './span-parent.js';

export interface TracingOptions {
  /** Default: the global provider (`trace.getTracerProvider()`, set by the host's SDK). */
  tracerProvider?: TracerProvider;
}

export interface WebsiftTracing {
  /** Stops making spans (spans already started still end). */
  close(): void;
}

const TRACER_NAME = 'websift';

/**
 * Turns the websift channels into spans.
 * @example
 * ```ts
 * import { websiftTracing } from 'websift/otel';
 * websiftTracing(); // after the OpenTelemetry SDK has registered its provider
 * ```
 */
export function websiftTracing(options: TracingOptions = {}): WebsiftTracing {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(TRACER_NAME);
  void SPAN_PARENT_KEEPER; // alive with the module: the shapes of a call's children's parents (span-parent.ts)
  /** Each traced context's span, in this adapter's slot on the context (kept with the context: a late child still finds its parent; no WeakMap to keep; a slot the context has from creation, not a property added to it). */
  const SPAN: unique symbol = claimSlot('websift.otel.span') as never;
  /** On a call's context: its children's parent context (the call's span over the active context), made as the call starts. */
  const CHILDREN: unique symbol = claimSlot('websift.otel.children') as never;
  type Spanned = { [SPAN]?: Span; [CHILDREN]?: SpanParent };
  /**
   * The parent of a source, page or charge: its call's span over the context active when the call started
   * (the work runs inside the call, so it sees that context: one look-up per call, not one per child), else,
   * for a call not traced by this adapter, the active context.
   */
  const callParent = (of: CallTraceContext | undefined): Context => (of as Spanned | undefined)?.[CHILDREN] ?? otelContext.active();

  const unsub: (() => void)[] = [];
  /** Subscribes `handler` to `event`, and unsubscribes it on close. */
  const on = (event: Channel<unknown, object>, handler: (m: unknown) => void) => {
    event.subscribe(handler);
    unsub.push(() => event.unsubscribe(handler));
  };
  // Only the events that make or end a span: an event nobody listens to is not published (traced()). One
  // handler per kind of context (a call, a page), each reading one class of context: V8 sees one shape at
  // each of their reads, not every channel's behind a shared closure's.
  /** A span whose work failed: the exception and an ERROR status (a span nobody records drops them: not built). */
  const failed = (message: unknown) => {
    const span = (message as Spanned)[SPAN];
    if (span?.isRecording()) markFailed(span, (message as { error?: unknown }).error);
  };

  // The HTTP bindings make no span (the host's HTTP instrumentation does): a call they make names its
  // request, whose traceparent (when valid) is the call's parent. Listening makes them build that context;
  // listening to its `error`, published only for a request that threw, publishes nothing per request.
  on(channels.http.error, () => {});
  for (const kind of ['search', 'extract'] as const) {
    const name = `websift.${kind}`;
    const channel = channels[kind];
    // The call's parent: the traceparent of the HTTP request it answers, else the active context.
    on(channel.start, (message) => {
      const c = message as CallTraceContext & Spanned;
      const active = otelContext.active();
      const request = c.request;
      const parent = (request === undefined ? undefined : remoteParent(request)) ?? active;
      const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: { 'websift.organization': c.organization } }, parent);
      c[SPAN] = span;
      c[CHILDREN] = new SpanParent(active, span);
    });
    on(channel.asyncEnd, (message) => {
      const c = message as CallTraceContext & Spanned;
      const span = c[SPAN];
      if (!span) return; // started before this adapter subscribed
      // A span nobody records (no SDK, or not sampled) drops attributes: not built for it.
      if (span.isRecording()) {
        span.setAttributes({ 'websift.outcome': c.outcome ?? 'error', 'websift.credits': c.credits ?? 0 });
        if (c.cache) span.setAttributes({ 'websift.cache.lookups': c.cache.lookups, 'websift.cache.hits': c.cache.hits });
      }
      span.end();
    });
    on(channel.error, failed);
  }
  on(channels.page.start, (message) => {
    const c = message as PageTraceContext & Spanned;
    c[SPAN] = tracer.startSpan('websift.page', { kind: SpanKind.INTERNAL, attributes: { 'server.address': c.host } }, callParent(c.call));
  });
  on(channels.page.asyncEnd, (message) => {
    const c = message as PageTraceContext & Spanned;
    const span = c[SPAN];
    if (!span) return;
    if (span.isRecording()) {
      span.setAttribute('websift.page.outcome', c.outcome ?? 'error');
      if (c.bytes !== undefined) span.setAttribute('websift.page.bytes', c.bytes);
      if (c.conversionMs !== undefined) span.setAttribute('websift.page.conversion_ms', c.conversionMs);
      if (c.outcome !== 'success') span.setStatus({ code: SpanStatusCode.ERROR, message: c.outcome ?? 'error' });
    }
    span.end();
  });
  on(channels.page.error, failed);
  // A call's source calls and settlement: spans made from the notes the router and the settlement hand
  // websift's readers (src/channels.ts, `readCallWork`) as each ends, with the times it started and ended,
  // not from websift:source/charge (so neither channel is traced for the adapter). The spans are the same
  // as when they were made from those channels' events: never made active (no context manager is used:
  // nothing ran inside them), same names, attributes, statuses and parent.
  const stopReading = readCallWork({
    attempt(call, source, attempt, role, outcome, start, end) {
      const attributes = { 'websift.source.id': source, 'websift.source.role': role, 'websift.source.attempt': attempt };
      const span = tracer.startSpan('websift.source', { kind: SpanKind.INTERNAL, attributes, startTime: start }, callParent(call));
      if (span.isRecording()) {
        span.setAttribute('websift.source.outcome', outcome);
        if (outcome === 'failed' || outcome === 'timeout') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      }
      span.end(end);
    },
    charge(call, kind, reserved, charged, error, start, end) {
      const attributes = { 'websift.charge.kind': kind, 'websift.charge.reserved': reserved };
      const span = tracer.startSpan('websift.charge', { kind: SpanKind.INTERNAL, attributes, startTime: start }, callParent(call));
      if (span.isRecording()) {
        if (charged === undefined) markFailed(span, error, end);
        span.setAttribute('websift.charge.charged', charged ?? 0);
      }
      span.end(end);
    },
  });
  unsub.push(stopReading);

  let open = true;
  return {
    close() {
      if (!open) return;
      open = false;
      for (const step of unsub) step();
      releaseSlot(SPAN);
      releaseSlot(CHILDREN);
    },
  };
}

/** A span whose work failed with `error`: the exception recorded (at `time`, else now) and an ERROR status naming it. */
function markFailed(span: Span, error: unknown, time?: number): void {
  if (error instanceof Error) span.recordException(error, time);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-|$)/;

/** The W3C trace context of a request, as a remote parent; undefined for none or an invalid one. */
function remoteParent(http: HttpTraceContext): Context | undefined {
  const match = http.traceparent === undefined ? null : TRACEPARENT.exec(http.traceparent.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  // Version ff is invalid; version 00 allows nothing after the flags.
  if (version === 'ff' || (version === '00' && http.traceparent!.trim().length !== 55)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: parseInt(flags, 16) & 1,
    isRemote: true,
    ...(http.tracestate ? { traceState: createTraceState(http.tracestate) } : {}),
  });
}
