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
  traceparent?: string | undefined;
  tracestate?: string | undefined;
  status?: number | undefined;
  /** Once the key was authenticated. */
  organization?: string | undefined;
}

/** `websift:search` and `websift:extract`: one engine call. `credits` and `outcome` are set by its end. */
export interface CallTraceContext extends Traced {
  kind: 'search' | 'extract';
  organization: string;
  credits?: number | undefined;
  /** `success`, `no_results` (search), or the error's code (`rate_limited`, `search_unavailable`, `timeout`…). */
  outcome?: string | undefined;
  /** Of an answer: how many of its parts were looked up in a cache (search: the answer; extract: each page) and found there. */
  cache?: { lookups: number; hits: number } | undefined;
  /** The HTTP request the call answers, when made through the HTTP bindings and `websift:http` was traced (not enumerable). */
  readonly request?: HttpTraceContext | undefined;
}

/** The enclosing call, on the contexts of the work it does (when the call's channel was traced; not enumerable). */
interface InCall {
  readonly call?: CallTraceContext | undefined;
}

/** `websift:source`: one call to one search source. */
export interface SourceTraceContext extends Traced, InCall {
  source: string;
  /** 1-based call to this source within the search. */
  attempt: number;
  /** primary: the first source asked; fallback: asked after another failed or was empty; hedge: asked early because one was slow; retry: the same source again. */
  role: 'primary' | 'fallback' | 'hedge' | 'retry';
  /** Set by its end: answered (results), empty, failed, timeout, or cancelled (a lost hedge, the deadline, the caller). */
  outcome?: 'answered' | 'empty' | 'failed' | 'timeout' | 'cancelled' | undefined;
  latencyMs?: number | undefined;
}

/** `websift:page`: one page fetched and converted (extract, or a search's include_content). */
export interface PageTraceContext extends Traced, InCall {
  /** The URL's host only (never its path or query). */
  host: string;
  /** Set by its end: `success`, or the page's error type (`timeout`, `blocked`, `http`…). */
  outcome?: string | undefined;
  /** Bytes of the fetched body. */
  bytes?: number | undefined;
  /** Time spent converting it, in ms. */
  conversionMs?: number | undefined;
}

/** `websift:charge`: one settlement with the ledger. `charged` is set by its end. */
export interface ChargeTraceContext extends Traced, InCall {
  kind: 'search' | 'extract';
  organization: string;
  /** Credits held for the worst case. */
  reserved: number;
  charged?: number | undefined;
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

/**
 * Slots on every context for subscribers' own per-context state (the request log's record, the metrics'
 * start time, the OpenTelemetry span): symbol-keyed fields each context class declares at creation, so
 * no subscriber adds a property to a context. A context that gains properties after creation moves
 * along a transition tree whose leaf hidden classes a GC may collect, and V8 then deopts every function
 * that saw them ("weak objects", docs/benchmarks.md, "Observability", eighth round). Symbols: not
 * enumerable by Object.keys, not serialized.
 */
const SLOT_0: unique symbol = Symbol('websift.traceSlot.0');
const SLOT_1: unique symbol = Symbol('websift.traceSlot.1');
const SLOT_2: unique symbol = Symbol('websift.traceSlot.2');
const SLOT_3: unique symbol = Symbol('websift.traceSlot.3');
const SLOTS = [SLOT_0, SLOT_1, SLOT_2, SLOT_3] as const;
const claimed = new Set<symbol>();

/** A subscriber's key for its state on a context: `(context as Slotted)[slot]`. */
export type TraceSlot = symbol;
export type Slotted = { [slot: symbol]: unknown };

/**
 * A free slot for one subscriber's per-context state, until `releaseSlot`. With all taken (more than
 * four websift subscribers at once), a symbol of its own: still correct, the property added per context.
 * A released slot may still hold a previous owner's value on contexts already in flight.
 */
export function claimSlot(name: string): TraceSlot {
  for (const slot of SLOTS) {
    if (!claimed.has(slot)) {
      claimed.add(slot);
      return slot;
    }
  }
  return Symbol(name);
}

export function releaseSlot(slot: TraceSlot): void {
  claimed.delete(slot);
}

// One class per kind of context, assigning every field it will ever get (those set by its end, by
// `traced`: `result`, `error`, and the subscribers' slots) in its constructor: one hidden class from
// creation. Its parent is a private field read by a getter on the prototype: not an own, enumerable
// property, so a subscriber that logs or serializes a context gets that context's own facts, not its
// call's answer (the channel's `result`).

/** What every context holds from creation: the channel's `error` and `result`, and the subscribers' slots. */
abstract class Trace {
  error: unknown = undefined;
  result: unknown = undefined;
  [SLOT_0]: unknown = undefined;
  [SLOT_1]: unknown = undefined;
  [SLOT_2]: unknown = undefined;
  [SLOT_3]: unknown = undefined;
}

/** A context whose `call` is its enclosing call. */
abstract class InCallTrace extends Trace {
  readonly #call: CallTraceContext | undefined;
  constructor(call: CallTraceContext | undefined) {
    super();
    this.#call = call;
  }
  get call(): CallTraceContext | undefined {
    return this.#call;
  }
}

/**
 * When a request began (`performance.now()`), on its websift:http context: read once and shared by the
 * subscribers that time the request. The access log notes the time it opened the request's record, as its
 * `start` listener runs (`noteRequestStart`); when none was noted and a subscriber asked for starts
 * (`wantRequestStarts`: websift/metrics, which then needs no `start` listener of its own), the bindings read
 * the clock once the `start` event is published (`stampRequestStart`), not as the context is made: a clock
 * read the log's note replaced on every request with both on. Symbol-keyed: not one of the context's public
 * fields, not serialized.
 */
const REQUEST_START: unique symbol = Symbol('websift.requestStart');
/** How many subscribers asked for the requests' start times (`wantRequestStarts`). */
let startsWanted = 0;

/** The websift:http context. */
export class HttpTrace extends Trace implements HttpTraceContext {
  status: number | undefined = undefined;
  organization: string | undefined = undefined;
  [REQUEST_START]: number | undefined = undefined;
  constructor(
    public requestId: string,
    public method: string,
    public path: string,
    public endpoint: string,
    public traceparent: string | undefined,
    public tracestate: string | undefined,
  ) {
    super();
  }
}

/** From now on every websift:http context notes its request's start (`stampRequestStart`); returns how to stop asking. */
export function wantRequestStarts(): () => void {
  startsWanted++;
  let asking = true;
  return () => {
    if (asking) startsWanted--;
    asking = false;
  };
}

/** Notes when the request began (`performance.now()` taken earlier than the context: the access log's open). */
export function noteRequestStart(http: HttpTraceContext, at: number): void {
  (http as { [REQUEST_START]?: number | undefined })[REQUEST_START] = at;
}

/**
 * The request's start when a subscriber asked for starts and none was noted: the clock now (the bindings,
 * right after publishing the context's `start`, before any work of the request).
 */
export function stampRequestStart(http: HttpTrace): void {
  if (startsWanted > 0 && http[REQUEST_START] === undefined) http[REQUEST_START] = performance.now();
}

/** The request's start, when one was noted (asked for by `wantRequestStarts`, or by the access log). */
export const notedRequestStart = (http: HttpTraceContext): number | undefined =>
  (http as { [REQUEST_START]?: number | undefined })[REQUEST_START];

/**
 * What a traced search's sources did, as `websift serve`'s access log says it: the router notes each call's
 * end on the search's context (`noteSource`), so the log needs no websift:source subscription (which would
 * trace every source call: a context, a settle reaction and an event each). Symbol-keyed: not one of the
 * context's public fields, not serialized.
 */
const SOURCES: unique symbol = Symbol('websift.callSources');

export interface CallSources {
  /** Sources that answered (results or empty), in the order they did. */
  answered: string[];
  /** A source was asked as a fallback / as a hedge. */
  fallback: boolean;
  hedged: boolean;
}

/** Notes a source call's end on its search's context (the router, after each call to a source). */
export function noteSource(call: CallTraceContext, source: string, role: SourceTraceContext['role'], answered: boolean): void {
  const noted = (call as { [SOURCES]?: CallSources })[SOURCES];
  if (noted === undefined) {
    // The first call's source in a literal: an empty array's first push grows it to 17 slots (~150 bytes a
    // search), and a search mostly has one answering source.
    (call as { [SOURCES]?: CallSources })[SOURCES] = {
      answered: answered ? [source] : [],
      fallback: role === 'fallback',
      hedged: role === 'hedge',
    };
    return;
  }
  if (role === 'fallback') noted.fallback = true;
  else if (role === 'hedge') noted.hedged = true;
  if (answered) noted.answered.push(source);
}

/** What `noteSource` noted on a call's context; undefined when no source was called. */
export const callSources = (call: CallTraceContext): CallSources | undefined => (call as { [SOURCES]?: CallSources })[SOURCES];

/**
 * websift's own readers of a traced call's source calls and settlement (websift/metrics, websift/otel):
 * the router and the ledger's settlement hand each one's facts to them directly (`noteAttempt`,
 * `noteCharge`), on the call whose context exists, so that with only websift's subscribers on nobody
 * listens to websift:source or websift:charge and `traced` skips both (no context, settle reaction nor
 * events per source call and settlement). An APM that subscribes to those channels still gets every event.
 * A note is delivered as it is made, never held for the call's end: one made after its call ended (none
 * can be today: a search awaits its lanes and its settlement) is read like any other, exactly once.
 * Times are `performance.now()` readings, or 0 when no reader wants them (`times: false`: no clock read for them).
 */
export interface CallWorkReader {
  /** false: this reader ignores the notes' times (websift/metrics). Default: it reads them. */
  readonly times?: boolean;
  /** One call to a source ended (as websift:source's asyncEnd: `outcome` as its context's). */
  attempt(
    call: CallTraceContext,
    source: string,
    attempt: number,
    role: SourceTraceContext['role'],
    outcome: NonNullable<SourceTraceContext['outcome']>,
    start: number,
    end: number,
  ): void;
  /** One settlement ended: `charged` as websift:charge's context's, undefined when it failed with `error`. */
  charge(
    call: CallTraceContext,
    kind: ChargeTraceContext['kind'],
    reserved: number,
    charged: number | undefined,
    error: unknown,
    start: number,
    end: number,
  ): void;
}

/** Replaced, never changed in place: a note being delivered keeps the list it started with. */
let readers: readonly CallWorkReader[] = [];
/** Whether a reader wants the notes' times (kept with `readers`: read per note). */
let timed = false;

/** Starts giving `reader` every note; returns how to stop. */
export function readCallWork(reader: CallWorkReader): () => void {
  readers = [...readers, reader];
  timed = readers.some((r) => r.times !== false);
  return () => {
    readers = readers.filter((r) => r !== reader);
    timed = readers.some((r) => r.times !== false);
  };
}

/** Whether a note would be read (checked before taking its times). */
export const callWorkRead = (): boolean => readers.length > 0;

/** A note's time: `performance.now()` when a reader wants the times, else 0 (two clock reads a note saved: websift/metrics alone). */
export const noteTime = (): number => (timed ? performance.now() : 0);

/** A reader's error is thrown on its own turn, as a channel subscriber's is: the engine's work goes on. */
const rethrow = (error: unknown) => {
  throw error;
};

/** One source call of a traced call ended (the router, after each call to a source). */
export function noteAttempt(
  call: CallTraceContext,
  source: string,
  attempt: number,
  role: SourceTraceContext['role'],
  outcome: NonNullable<SourceTraceContext['outcome']>,
  start: number,
  end: number,
): void {
  // Indexed, not for…of: no iterator nor result objects per note where V8 does not remove them.
  const list = readers;
  for (let i = 0; i < list.length; i++) {
    try {
      list[i]!.attempt(call, source, attempt, role, outcome, start, end);
    } catch (error) {
      process.nextTick(rethrow, error);
    }
  }
}

/** A traced call's settlement ended (the ledger's settlement): `charged` undefined when it failed with `error`. */
export function noteCharge(
  call: CallTraceContext,
  kind: ChargeTraceContext['kind'],
  reserved: number,
  charged: number | undefined,
  error: unknown,
  start: number,
  end: number,
): void {
  const list = readers;
  for (let i = 0; i < list.length; i++) {
    try {
      list[i]!.charge(call, kind, reserved, charged, error, start, end);
    } catch (error) {
      process.nextTick(rethrow, error);
    }
  }
}

/** The websift:search and websift:extract context. */
export class CallTrace extends Trace implements CallTraceContext {
  readonly #request: HttpTraceContext | undefined;
  credits: number | undefined = undefined;
  outcome: string | undefined = undefined;
  cache: { lookups: number; hits: number } | undefined = undefined;
  [SOURCES]: CallSources | undefined = undefined;
  constructor(
    public kind: 'search' | 'extract',
    public organization: string,
    request: HttpTraceContext | undefined,
  ) {
    super();
    this.#request = request;
  }
  get request(): HttpTraceContext | undefined {
    return this.#request;
  }
}

/** The websift:source context. */
export class SourceTrace extends InCallTrace implements SourceTraceContext {
  outcome: SourceTraceContext['outcome'] = undefined;
  latencyMs: number | undefined = undefined;
  constructor(
    public source: string,
    public attempt: number,
    public role: SourceTraceContext['role'],
    call: CallTraceContext | undefined,
  ) {
    super(call);
  }
}

/** The websift:page context. */
export class PageTrace extends InCallTrace implements PageTraceContext {
  outcome: string | undefined = undefined;
  bytes: number | undefined = undefined;
  conversionMs: number | undefined = undefined;
  constructor(
    public host: string,
    call: CallTraceContext | undefined,
  ) {
    super(call);
  }
}

/** The websift:charge context. */
export class ChargeTrace extends InCallTrace implements ChargeTraceContext {
  charged: number | undefined = undefined;
  constructor(
    public kind: 'search' | 'extract',
    public organization: string,
    public reserved: number,
    call: CallTraceContext | undefined,
  ) {
    super(call);
  }
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
 * store around the work. Without a store it returns `work`'s own promise, which every caller must await.
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
  const promise = publishedAround(channel, context, work, finish, false);
  // The settle reaction goes on the work's own promise, which the caller gets: registered first, it runs
  // before the caller's await resumes (its events published, `finish` applied), and the caller waits on no
  // promise of traced's (one promise resolution and one turn less per traced call). The reaction's own
  // promise always fulfils: the rejection reaches the caller through the work's promise. Every caller
  // awaits traced (it is internal), so no rejection goes unreported.
  promise.then(
    (result) => publishSettled(channel, context, false, result, finish),
    (error: unknown) => publishSettled(channel, context, true, error, finish),
  );
  return promise;
}

/**
 * `traced` for a work that publishes its own settlement (`publishSettled`) from a reaction it attaches to
 * its promise anyway, before returning it (the engine's calls: their in-flight bookkeeping), so that the
 * trace adds no reaction, closures nor promise of its own. `work` gets `settles` true when it must publish
 * the settlement (nobody listening, or a bound store's tracePromise: false, as traced). A reaction runs
 * after `end` is published, so the events keep traced's order.
 */
export function tracedSettledByWork<T, C extends object>(
  channel: TracingChannel<unknown, C>,
  make: () => NoInfer<C>,
  work: (context: C | undefined, settles: boolean) => Promise<T>,
  finish?: Finish<NoInfer<T>, NoInfer<C>>,
): Promise<T> {
  if (!channel.hasSubscribers) return work(undefined, false);
  const context = make();
  if (hasStores(channel)) return channel.tracePromise(() => finishing((c: C) => work(c, false), context, finish), context);
  return publishedAround(channel, context, work, finish, true);
}

/** `start`, `work` and `end`, with a synchronous throw published as tracePromise does (`finish`, `error`, then `end`). */
function publishedAround<T, C extends object>(
  channel: TracingChannel<unknown, C>,
  context: C,
  work: (context: C, settles: boolean) => Promise<T>,
  finish: Finish<T, C> | undefined,
  settles: boolean,
): Promise<T> {
  const { start, end } = channel;
  if (start.hasSubscribers) start.publish(context);
  try {
    return work(context, settles);
  } catch (error) {
    finish?.(context, true, error);
    (context as Traced).error = error;
    if (channel.error.hasSubscribers) channel.error.publish(context);
    throw error;
  } finally {
    if (end.hasSubscribers) end.publish(context);
  }
}

/**
 * A traced work's settlement on `channel`, as `traced` publishes it: `finish` applied, `result` or `error` set
 * on the context, then `error` (when it failed), `asyncStart` and `asyncEnd`. For a caller that publishes
 * its own `start` and `end` (no store bound: `hasStores`) and settles without a reaction of its own (the
 * HTTP bindings, src/http/api-handler.ts).
 */
export function publishSettled<T, C extends object>(
  channel: TracingChannel<unknown, C>,
  context: C,
  failed: boolean,
  value: T | unknown,
  finish?: Finish<T, C>,
): void {
  finish?.(context, failed, value);
  if (failed) {
    (context as Traced).error = value;
    if (channel.error.hasSubscribers) channel.error.publish(context);
  } else (context as { result?: unknown }).result = value;
  settled(channel, context);
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
export function hasStores(channel: TracingChannel<unknown, object>): boolean {
  const stores = (channel.start as unknown as { _stores?: Map<unknown, unknown> })._stores;
  return stores !== undefined && stores.size > 0;
}

/**
 * One instance of each context class, kept for the process's life. Fields defined in a constructor still
 * reach the final hidden class through transitions, which V8 holds weakly: with no context of a kind
 * alive at a full GC, its map dies and the optimized code that checks it is thrown away ("weak objects")
 * and recompiled. A live instance keeps the map (docs/benchmarks.md, "Observability", eighth round).
 */
export const SHAPE_KEEPERS: readonly object[] = [
  new HttpTrace('', '', '', '', undefined, undefined),
  new CallTrace('search', '', undefined),
  new SourceTrace('', 0, 'primary', undefined),
  new PageTrace('', undefined),
  new ChargeTrace('search', '', 0, undefined),
];
