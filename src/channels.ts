// The engine's tracing channels (node:diagnostics_channel), one per kind of work, with fixed names an
// APM, the metrics (websift/metrics), the OpenTelemetry adapter (websift/otel) and `websift serve`'s
// request log subscribe to. Nothing is built for a channel nobody listens to: `traced` checks
// `hasSubscribers` before it makes a context, so an engine without subscribers pays one property read.
// Contexts name their parent explicitly (a call its HTTP request, a source, page or charge its call), so a
// subscriber relates events without an AsyncLocalStorage: on Node 20 one in use turns on promise hooks
// for the whole process, which cost a traced server a third to a half more CPU per search (docs/benchmarks.md).

import { type TracingChannel, tracingChannel } from 'node:diagnostics_channel';

/** Every context carries what the channel's `error` event adds. */
interface Traced {
  error?: unknown;
}

/** `websift:http`: one request to the HTTP bindings. `status` and `organization` are set by its end. */
export interface HttpTraceContext extends Traced {
  requestId: string;
  method: string;
  /** The path without the query string. */
  path: string;
  /** The API route (`/api/search`, `/healthz`…), or `other` for a path the API does not serve. */
  endpoint: string;
  /** The incoming W3C trace context headers, when sent. */
  traceparent?: string;
  tracestate?: string;
  status?: number;
  /** Once the key was authenticated. */
  organization?: string;
}

/** `websift:search` and `websift:extract`: one engine call. `credits` and `outcome` are set by its end. */
export interface CallTraceContext extends Traced {
  kind: 'search' | 'extract';
  organization: string;
  credits?: number;
  /** `success`, `no_results` (search), or the error's code (`rate_limited`, `search_unavailable`, `timeout`…). */
  outcome?: string;
  /** Of an answer: how many of its parts were looked up in a cache (search: the answer; extract: each page) and found there. */
  cache?: { lookups: number; hits: number };
  /** The HTTP request the call answers, when made through the HTTP bindings and `websift:http` was traced (not enumerable). */
  readonly request?: HttpTraceContext;
}

/** The enclosing call, on the contexts of the work it does (when the call's channel was traced; not enumerable). */
interface InCall {
  readonly call?: CallTraceContext;
}

/** `websift:source`: one call to one search source. */
export interface SourceTraceContext extends Traced, InCall {
  source: string;
  /** 1-based call to this source within the search. */
  attempt: number;
  /** primary: the first source asked; fallback: asked after another failed or was empty; hedge: asked early because one was slow; retry: the same source again. */
  role: 'primary' | 'fallback' | 'hedge' | 'retry';
  /** Set by its end: answered (results), empty, failed, timeout, or cancelled (a lost hedge, the deadline, the caller). */
  outcome?: 'answered' | 'empty' | 'failed' | 'timeout' | 'cancelled';
  latencyMs?: number;
}

/** `websift:page`: one page fetched and converted (extract, or a search's include_content). */
export interface PageTraceContext extends Traced, InCall {
  /** The URL's host only (never its path or query). */
  host: string;
  /** Set by its end: `success`, or the page's error type (`timeout`, `blocked`, `http`…). */
  outcome?: string;
  /** Bytes of the fetched body. */
  bytes?: number;
  /** Time spent converting it, in ms. */
  conversionMs?: number;
}

/** `websift:charge`: one settlement with the ledger. `charged` is set by its end. */
export interface ChargeTraceContext extends Traced, InCall {
  kind: 'search' | 'extract';
  organization: string;
  /** Credits held for the worst case. */
  reserved: number;
  charged?: number;
}

/** The fixed names of the engine's TracingChannels (`diagnostics_channel.tracingChannel(name)`), by role. */
export const CHANNEL_NAMES = {
  http: 'websift:http',
  search: 'websift:search',
  extract: 'websift:extract',
  source: 'websift:source',
  page: 'websift:page',
  charge: 'websift:charge',
} as const;

export const channels = {
  http: tracingChannel<unknown, HttpTraceContext>(CHANNEL_NAMES.http),
  search: tracingChannel<unknown, CallTraceContext>(CHANNEL_NAMES.search),
  extract: tracingChannel<unknown, CallTraceContext>(CHANNEL_NAMES.extract),
  source: tracingChannel<unknown, SourceTraceContext>(CHANNEL_NAMES.source),
  page: tracingChannel<unknown, PageTraceContext>(CHANNEL_NAMES.page),
  charge: tracingChannel<unknown, ChargeTraceContext>(CHANNEL_NAMES.charge),
};

/**
 * Where the HTTP bindings put a request's `websift:http` context on the CallContext they pass the engine
 * (a symbol: not part of the public CallContext, invisible to JSON and to hosts' spreads of their own).
 */
export const REQUEST_TRACE: unique symbol = Symbol.for('websift.requestTrace') as never;

/** A CallContext as the HTTP bindings make it. */
export interface TracedCallContext {
  [REQUEST_TRACE]?: HttpTraceContext;
}

/** A context whose `call` is its enclosing call: a getter on the prototype, so not an own, enumerable property. */
class InCallContext {
  readonly #call: object;
  constructor(call: object) {
    this.#call = call;
  }
  get call(): object {
    return this.#call;
  }
}

/** A call's context whose `request` is its HTTP request (as InCallContext). */
class InRequestContext {
  readonly #request: object;
  constructor(request: object) {
    this.#request = request;
  }
  get request(): object {
    return this.#request;
  }
}

/**
 * `context`'s fields on an object that names its parent as `key`, when there is one. Not enumerable (a
 * getter of the object's class): a subscriber that logs or serializes a context gets that context's own
 * facts, not its call's answer (the channel's `result`). A class rather than `Object.defineProperty`,
 * which cost ~160 ns per context against ~50 (docs/benchmarks.md, "Observability").
 */
export function withParent<C extends object, K extends 'request' | 'call'>(context: C, key: K, parent: object | undefined): C {
  if (!parent) return context;
  return Object.assign(key === 'call' ? new InCallContext(parent) : new InRequestContext(parent), context) as C;
}

/**
 * What a traced call's context learns when its work settles (an answer's credits, a reply's status), filled
 * in before `asyncEnd` (or `error`) is published: `failed` says whether `value` is the work's result or
 * its error. A hook rather than an async wrapper around the work: the wrapper cost each traced call its own
 * promise, frame and await (~0.5 KB per call, docs/benchmarks.md, "Observability", fifth round).
 */
export type Finish<T, C> = (context: C, failed: boolean, value: T | unknown) => void;

/**
 * Runs `work` traced on `channel` (start, end, asyncStart/asyncEnd or error), its context made by `make`
 * only when someone listens; `work` gets that context (or undefined), and `finish` (when given) fills in
 * what its end reports. The events are those of `TracingChannel.tracePromise` (same order,
 * `result`/`error` on the context), published directly: tracePromise makes four closures and an extra
 * promise per call, and an event nobody listens to is not published. A subscriber that bound a store
 * (`start.bindStore`, an APM's AsyncLocalStorage) gets tracePromise itself, whose `runStores` enters the
 * store around the work.
 */
export function traced<T, C extends object>(
  channel: TracingChannel<unknown, C>,
  make: () => NoInfer<C>,
  work: (context: C | undefined) => Promise<T>,
  finish?: Finish<NoInfer<T>, NoInfer<C>>,
): Promise<T> {
  if (!channel.hasSubscribers) return work(undefined);
  const context = make();
  if (hasStores(channel)) return channel.tracePromise(() => finishing(work, context, finish), context);
  const { start, end } = channel;
  if (start.hasSubscribers) start.publish(context);
  let promise: Promise<T>;
  try {
    promise = work(context);
  } catch (error) {
    finish?.(context, true, error);
    (context as Traced).error = error;
    if (channel.error.hasSubscribers) channel.error.publish(context);
    throw error;
  } finally {
    if (end.hasSubscribers) end.publish(context);
  }
  return promise.then(
    (result) => {
      finish?.(context, false, result);
      (context as { result?: unknown }).result = result;
      settled(channel, context);
      return result;
    },
    (error: unknown) => {
      finish?.(context, true, error);
      (context as Traced).error = error;
      if (channel.error.hasSubscribers) channel.error.publish(context);
      settled(channel, context);
      throw error;
    },
  );
}

/** `work`'s promise, with `finish` applied to `context` as it settles (the store path, under tracePromise). */
function finishing<T, C>(work: (context: C) => Promise<T>, context: C, finish: Finish<T, C> | undefined): Promise<T> {
  if (!finish) return work(context);
  let promise: Promise<T>;
  try {
    promise = work(context);
  } catch (error) {
    finish(context, true, error);
    throw error;
  }
  return promise.then(
    (result) => {
      finish(context, false, result);
      return result;
    },
    (error: unknown) => {
      finish(context, true, error);
      throw error;
    },
  );
}

function settled<C extends object>(channel: TracingChannel<unknown, C>, context: C): void {
  if (channel.asyncStart.hasSubscribers) channel.asyncStart.publish(context);
  if (channel.asyncEnd.hasSubscribers) channel.asyncEnd.publish(context);
}

/** Whether a subscriber bound a store to the channel's start (Node keeps them in `_stores`; no public accessor on Node 20). */
function hasStores(channel: TracingChannel<unknown, object>): boolean {
  const stores = (channel.start as unknown as { _stores?: Map<unknown, unknown> })._stores;
  return stores !== undefined && stores.size > 0;
}
