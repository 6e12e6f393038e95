// engine.search: the billing and confirmation rules of the spec, over the router's outcomes.
// Order: free repeat (no credits needed) → reserve worst case (402) → confirmed-empty cache →
// route → decide success / confirmed empty / unconfirmed empty / 503 → open the repeat window → settle.
// The window goes first so that a charge never lands without it: a process killed (or a store write
// lost) between the two must not make the repeat pay again (docs/engine.md, "A charged search always leaves its window").

import type { CallTraceContext } from '../../channels.js';
import { SearchUnavailableError } from '../../errors.js';
import type { Flights } from '../../ports/flights.js';
import type { SearchCoordination, SearchEntry } from '../../ports/search-coordination.js';
import type { Clock, EmptySearchResponse, SearchResponse, SearchResultItem } from '../../types/index.js';
import type { Credits, RepeatEntry, RepeatWindows } from '../books/index.js';
import { searchPrice, searchReserve } from '../books/index.js';
import type { Call } from '../call.js';
import type { PartOffload } from '../read-parts.js';
import type { Router } from '../router/index.js';
import { timingSince } from '../timing.js';
import { type EmptyVerdict, emptyMessage, judgeEmpty } from './confirmation.js';
import { withContentParts } from './content-parts.js';
import type { ConfirmedEmpty, ConfirmedEmptyCache } from './empty-cache.js';
import type { SearchParams } from './params.js';
import { parseQuery, queryText, searchKey } from './query.js';
import { type ContentCounts, emptyResponse, successResponse, toResultItems } from './response.js';

/** include_content hook: adds content/content_error to the first `count` results. */
export type ContentFetcher = (
  results: SearchResultItem[],
  count: number,
  signal?: AbortSignal,
  /** The calling organization (its share of the conversion pool). */
  org?: string,
  /** The search's websift:search context, when someone listens: the pages' websift:page contexts name it. */
  trace?: CallTraceContext,
) => Promise<{ items: SearchResultItem[]; requested: number; delivered: number }>;

/** What a free repeat answers with: the charged answer. */
export type SearchSnapshot =
  | { kind: 'success'; results: SearchResultItem[]; content?: ContentCounts }
  | { kind: 'empty'; notices: number; content?: ContentCounts };

export interface SearchDeps {
  clock: Clock;
  router: Router;
  credits: Credits;
  repeats: RepeatWindows<SearchSnapshot>;
  empties: ConfirmedEmptyCache;
  resultsPerSearch: number;
  flights: Flights;
  /** Asks the shared store in one round trip what the ports ask one by one (Redis); optional. */
  coordination?: SearchCoordination;
  contentFetcher: ContentFetcher;
  /** Cuts long pages' query passages off the event loop (max_chars); without it, on the host. */
  partOffload?: PartOffload;
}

type Answer = SearchResponse | EmptySearchResponse;

/** The rate-limit take the engine left to the search (so a coordinated one joins it to its other reads). */
export interface Admission {
  /** Clock time of the take. */
  now: number;
  /** Takes it alone: RateLimitError / RateLimiterUnavailableError, as the engine's guard. */
  admit(): Promise<void>;
}

const PLAIN: SearchEntry = { kind: 'plain' };

export async function runSearch(deps: SearchDeps, params: SearchParams, call: Call, admission?: Admission): Promise<Answer> {
  const text = queryText(params.q); // the key's query part, and the confirmed-empty cache's key
  const key = searchKey(params.q, params, text);
  // Identical requests of one organization run one at a time, so a repeat arriving while the
  // charged request is in flight becomes a free repeat instead of a second charge.
  const flightKey = `${call.org}\u0000${key}`;
  if (admission && deps.coordination) {
    const { repeats } = deps;
    const request = {
      organization: call.org,
      now: admission.now,
      flightKey,
      windowKey: repeats.storeKey(call.org, key),
      fresh: (window: unknown) => repeats.fresh(window as RepeatEntry),
      emptyKey: text,
    };
    const started = deps.coordination.start(request, (entry) => searchOnce(deps, params, call, key, text, entry), call.signal);
    if (started) return started;
  }
  await admission?.admit();
  return deps.flights.run(flightKey, () => searchOnce(deps, params, call, key, text, PLAIN), call.signal);
}

/**
 * Cancellation (call.signal): an abort before the settlement begins stops the route and the content
 * fetches and rejects with the signal's reason, nothing charged (it is checked again right before the
 * charge: a client gone, or a request its server dropped, after the source answered). Once the
 * settlement has begun the answer is delivered (and charged, its repeat window open) whatever the signal says.
 */
async function searchOnce(
  deps: SearchDeps,
  params: SearchParams,
  call: Call,
  key: string,
  text: string,
  entry: SearchEntry,
): Promise<Answer> {
  const { clock } = deps;
  const { org, start, signal } = call;
  // What the coordination found on entering (a window inside its time; none, with the flight's lock), or ask.
  const repeat =
    entry.kind === 'window'
      ? (entry.window as RepeatEntry<SearchSnapshot>)
      : entry.kind === 'held'
        ? undefined
        : await findWindow(deps, org, key);
  /** Writes the window now (before the charge); resolves to its withdrawal, for a charge that does not happen. */
  const openWindow = async (snapshot: SearchSnapshot): Promise<() => Promise<void>> => {
    if (entry.kind !== 'held') {
      await deps.repeats.open(org, key, start, snapshot);
      return () => deps.repeats.withdraw(org, key);
    }
    const { entry: window, ttlMs } = deps.repeats.entryOf(start, snapshot);
    await entry.open(window, ttlMs);
    return async () => entry.withdraw(); // deleted as the lock is released: nobody reads it meanwhile
  };
  if (repeat) {
    const hold = await deps.credits.hold(org, 'search', 0, call.billing, call.trace);
    await hold.settle(0);
    return fromSnapshot(deps, params, call, repeat.value, timingSince(clock, start));
  }

  // Looked up while the reservation is made (two stores, two round trips at once); unused on a 402.
  const confirmedEmpty =
    entry.kind === 'held' ? Promise.resolve(deps.empties.fresh(entry.empty as ConfirmedEmpty | undefined)) : deps.empties.find(text);
  confirmedEmpty.catch(() => {}); // awaited below, unless the reservation fails first
  const hold = await deps.credits.hold(
    org,
    'search',
    searchReserve(params.includeContent, params.contentResults),
    call.billing,
    call.trace,
  );
  /**
   * Settles at `price` with the window of `snapshot` written first, when the search will be charged.
   * A window the store refuses: 503, nothing charged. A settlement that fails (nothing stays charged)
   * or charges 0: the window is withdrawn. Killed in between: the window stays, free, uncharged — a
   * repeat then never pays twice, only possibly not at all.
   */
  const settleWithWindow = async (price: number, snapshot: SearchSnapshot): Promise<number> => {
    const paid = call.billing?.paid;
    let withdraw: (() => Promise<void>) | undefined;
    if ((paid ?? price) > 0) {
      try {
        withdraw = await openWindow(snapshot);
      } catch (error) {
        await hold.release(true);
        throw new SearchUnavailableError(undefined, error);
      }
    }
    if (signal?.aborted) {
      // Nobody is left to answer (the client went away, the server dropped the request), maybe since the
      // sources answered: an error, never charged. Checked after the window, the last wait before the charge.
      await withdraw?.().catch(() => {});
      throw signal.reason;
    }
    let credits: number;
    try {
      credits = await hold.settle(price);
    } catch (error) {
      await withdraw?.().catch(() => {}); // best effort: a window left behind only makes a repeat free
      throw error;
    }
    if (credits === 0) await withdraw?.().catch(() => {});
    return credits;
  };
  try {
    const content = params.includeContent ? { requested: 0, delivered: 0 } : undefined;
    const cached = await confirmedEmpty;
    if (cached) {
      const snapshot: SearchSnapshot = { kind: 'empty', notices: cached.notices, ...(content ? { content } : {}) };
      const credits = await settleWithWindow(searchPrice('confirmed_empty'), snapshot);
      const verdict: EmptyVerdict = { confirmed: true, notices: cached.notices };
      const message = emptyMessage(verdict, 'charged_from_cache');
      return emptyResponse(params.q, { credits, fromCache: true, verified: true, message }, timingSince(clock, start), content);
    }

    const query = parseQuery(params.q);
    const route = await deps.router.route(query, {
      limit: deps.resultsPerSearch,
      ...(signal ? { signal } : {}),
      ...(call.trace ? { trace: call.trace } : {}),
    });
    if (route.outcomes.every((o) => o.status === 'failed')) {
      // No source finished (or none could be asked): 503, never charged, counted as answered.
      await hold.release(true);
      const last = route.outcomes.at(-1)?.error;
      throw new SearchUnavailableError(undefined, last);
    }

    let results = toResultItems(route.results, deps.resultsPerSearch);
    if (results.length > 0) {
      let counts: ContentCounts | undefined;
      if (params.includeContent) {
        const fetched = await deps.contentFetcher(results, params.contentResults, signal, org, call.trace);
        signal?.throwIfAborted(); // pages cut short by the abort are not a delivery to charge for
        results = fetched.items;
        counts = { requested: fetched.requested, delivered: fetched.delivered };
      }
      // The snapshot keeps the full content: a repeat with another max_chars is cut afresh.
      const snapshot: SearchSnapshot = { kind: 'success', results, ...(counts ? { content: counts } : {}) };
      // Cut before the charge: an error (or an abort) while cutting is an error never charged.
      const delivered = await withContentParts(results, params.q, params.maxChars, offloadOf(deps, call));
      const credits = await settleWithWindow(searchPrice('success', counts?.delivered), snapshot);
      return successResponse(params.q, delivered, { credits, fromCache: false }, timingSince(clock, start), counts);
    }

    const verdict = judgeEmpty(query, route.outcomes);
    if (!verdict.confirmed) {
      // Unconfirmed: free, never cached, opens no window; a repeat searches afresh.
      await hold.settle(0);
      const message = emptyMessage(verdict, 'free');
      return emptyResponse(params.q, { credits: 0, fromCache: false, verified: false, message }, timingSince(clock, start), content);
    }
    await deps.empties.add(text, { confirmedAt: start, notices: verdict.notices });
    const snapshot: SearchSnapshot = { kind: 'empty', notices: verdict.notices, ...(content ? { content } : {}) };
    const credits = await settleWithWindow(searchPrice('confirmed_empty'), snapshot);
    const message = emptyMessage(verdict, 'charged');
    return emptyResponse(params.q, { credits, fromCache: false, verified: true, message }, timingSince(clock, start), content);
  } catch (error) {
    // Any failure after the reservation: nothing charged. A 503 already released as answered.
    await hold.release(false);
    throw error;
  }
}

/**
 * The window read, a required one: a store that failed to read while up (Redis answering late) refuses
 * the call, 503 before anything is reserved, instead of charging a repeat that may be free.
 */
async function findWindow(deps: SearchDeps, org: string, key: string): Promise<RepeatEntry<SearchSnapshot> | undefined> {
  try {
    return await deps.repeats.find(org, key, REQUIRED_READ);
  } catch (error) {
    throw new SearchUnavailableError(undefined, error);
  }
}

const REQUIRED_READ = { required: true } as const;

/** A free repeat: the charged answer again (its content cut to this request's max_chars), from_cache true, 0 credits. */
async function fromSnapshot(
  deps: SearchDeps,
  params: SearchParams,
  call: Call,
  snapshot: SearchSnapshot,
  timing: ReturnType<typeof timingSince>,
): Promise<Answer> {
  const query = params.q;
  if (snapshot.kind === 'success') {
    const results = await withContentParts(snapshot.results, query, params.maxChars, offloadOf(deps, call));
    return successResponse(query, results, { credits: 0, fromCache: true }, timing, snapshot.content);
  }
  const message = emptyMessage({ confirmed: true, notices: snapshot.notices }, 'free_repeat');
  return emptyResponse(query, { credits: 0, fromCache: true, verified: true, message }, timing, snapshot.content);
}

const offloadOf = (deps: SearchDeps, call: Call) =>
  deps.partOffload ? { run: deps.partOffload, org: call.org, signal: call.signal } : undefined;
