// engine.extract: per-URL fetching and conversion with the spec's billing.
// Order: stealth date → free repeats (required reads: 503 cache_unavailable before anything is reserved)
// → reserve the worst case (402) → fetch under the request deadline (504, nothing charged) → open the
// charged URLs' windows (refused: 503 cache_unavailable) → settle 1 (or 5 with stealth) per charged
// success (a failed or zero charge withdraws the windows).

import type { CallTraceContext } from '../../channels.js';
import { CacheUnavailableError, ExtractTimeoutError, InvalidRequestError } from '../../errors.js';
import { parseFetchableUrl } from '../../fetch/url-check.js';
import type { CacheStore } from '../../ports/cache.js';
import type { Flights } from '../../ports/flights.js';
import type { Clock, ExtractResponse, ExtractResultItem, PageMetadata } from '../../types/index.js';
import type { Credits, Hold, RepeatWindows } from '../books/index.js';
import { extractUrlPrice, REPEAT_WINDOW_MS } from '../books/index.js';
import type { Call } from '../call.js';
import { type PagePart, type PartOffload, pageParts, readsInParts } from '../read-parts.js';
import { timingSince } from '../timing.js';
import { clockDeadline, DeadlineError } from './deadline.js';
import { answerBudget, answerFullMessage, fitAnswer } from './output-bounds.js';
import { pageCacheKey } from './page-cache-key.js';
import type { PageOutcome } from './page-outcome.js';
import { loadPage, type PageSourceDeps, withPageLimit } from './page-source.js';
import type { ExtractParams } from './params.js';
import { mapLimit } from './pool.js';

/**
 * A delivered page kept for free repeats (content cache). Its links are kept whether or not the
 * first request asked for them, so `include_links` changes neither URL sameness nor price
 * (docs/extract.md). An entry without `metadata` (stored by an older version) is not used: the
 * repeat is fetched again, free.
 */
export interface CachedPage {
  status: number;
  text: string;
  /** With `final_url`: a repeat of a redirected page answers the redirect's target. */
  metadata?: PageMetadata;
  links?: string[];
}

/** Characters a cached page holds (the content cache's size measure). */
export function cachedPageChars(page: CachedPage): number {
  let n = page.text.length;
  for (const v of Object.values(page.metadata ?? {})) n += v.length;
  for (const link of page.links ?? []) n += link.length;
  return n;
}

export interface ExtractDeps {
  clock: Clock;
  credits: Credits;
  /** Marks of charged URLs per organization (the window); the page itself lives in `pages`. */
  repeats: RepeatWindows<true>;
  /** Content cache: may evict a page while its window still holds; the repeat is then re-fetched, free. */
  pageCache: CacheStore<CachedPage>;
  pages: PageSourceDeps;
  flights: Flights;
  deadlineMs: number;
  concurrency: number;
  /** Clock time from which `stealth: true` is refused. */
  stealthRemovedAt: number;
  /** Cuts long pages' query passages off the event loop (reading in parts); without it, on the host. */
  partOffload?: PartOffload;
}

interface Target {
  key: string;
  url: string;
  free: boolean;
}

export async function runExtract(deps: ExtractDeps, params: ExtractParams, call: Call): Promise<ExtractResponse> {
  const { org } = call;
  if (params.stealth && deps.clock.now() >= deps.stealthRemovedAt) {
    const date = new Date(deps.stealthRemovedAt).toISOString();
    throw new InvalidRequestError([{ field: 'stealth', message: `stealth mode was removed on ${date}` }], 'stealth_unavailable');
  }
  const mode = params.stealth ? 'stealth' : 'normal';
  // URL sameness (contract §3): the WHATWG serialization without its fragment.
  const keyOf = (url: string) => `${parseFetchableUrl(url).href}\u0000${params.format}\u0000${mode}`;
  const keys = params.urls.map(keyOf);
  // Identical requests of one organization run one after another, so a repeat can't race its charge.
  return deps.flights.run(
    `extract\u0000${org}\u0000${[...new Set(keys)].sort().join('\u0001')}`,
    () => extractOnce(deps, params, call, keys),
    call.signal,
  );
}

/**
 * Cancellation (call.signal) works like the deadline: fetches and conversions in progress stop, the
 * call rejects with the signal's reason and nothing is charged. Once settlement has begun the answer
 * is delivered (and charged) whatever the signal says.
 */
async function extractOnce(deps: ExtractDeps, params: ExtractParams, call: Call, keys: string[]): Promise<ExtractResponse> {
  const { org, start } = call;
  const price = extractUrlPrice(params.stealth);
  const targets = new Map<string, Target>();
  for (const [i, key] of keys.entries()) {
    if (targets.has(key)) continue; // the same URL twice in one request is fetched (and charged) once
    targets.set(key, { key, url: params.urls[i] as string, free: await isRepeat(deps, org, key) });
  }
  const list = [...targets.values()];
  const hold = await deps.credits.hold(org, 'extract', list.filter((t) => !t.free).length * price, call.billing, call.trace);

  const deadline = clockDeadline(deps.clock, deps.deadlineMs, call.signal);
  let outcomes: PageOutcome[];
  let parts: Map<string, PagePart> | undefined;
  try {
    const work = mapLimit(list, deps.concurrency, (t) => fetchTarget(deps, t, params, { signal: deadline.signal, org }, call.trace));
    const timedOut = new Promise<never>((_, reject) => {
      deadline.signal.addEventListener('abort', () => reject(deadline.signal.reason), { once: true });
    });
    outcomes = await Promise.race([work, timedOut]);
    // Parts are picked within the deadline: a page still being ranked when it passes is cut from
    // start_char instead (pageParts' fallback), so the call never outlives its deadline.
    parts = readsInParts(params) ? await partsOf(deps, params, call, keys, list, outcomes, deadline.signal) : undefined;
  } catch (error) {
    await hold.release(error instanceof DeadlineError);
    throw error instanceof DeadlineError ? new ExtractTimeoutError(deps.deadlineMs) : error;
  } finally {
    deadline.clear();
  }

  try {
    outcomes = withinAnswer(deps, params, keys, list, outcomes, parts);
    call.signal?.throwIfAborted();
    const byKey = new Map(list.map((t, i) => [t.key, outcomes[i] as PageOutcome]));
    const charged = list.filter((t) => !t.free && byKey.get(t.key)?.ok);
    const credits = await settleWithWindows(deps, org, start, charged, hold, charged.length * price, call.billing?.paid, call.signal);
    for (const t of charged) {
      const page = byKey.get(t.key) as PageOutcome & { ok: true };
      const entry: CachedPage = { status: page.status, text: page.text, metadata: page.metadata };
      if (page.links) entry.links = page.links;
      // Best effort once charged: a page the cache lost is fetched again for the repeat, free.
      await deps.pageCache.set(pageCacheKey(org, t.key), entry, REPEAT_WINDOW_MS).catch(() => {});
    }
    const seen = new Set<string>();
    let cachedFree = 0;
    const results = keys.map((key, i) => {
      const outcome = byKey.get(key) as PageOutcome;
      const first = !seen.has(key);
      seen.add(key);
      if (outcome.ok && (targets.get(key)?.free || !first)) cachedFree++;
      return resultItem(params.urls[i] as string, outcome, params, parts?.get(key));
    });
    const successes = results.filter((r) => r.success).length;
    return {
      success: true,
      results,
      metadata: {
        total_urls: params.urls.length,
        processed_urls: results.length,
        successful_crawls: successes,
        failed_crawls: results.length - successes,
        credits_used: credits,
        ...timingSince(deps.clock, start),
        ...(params.stealth ? { stealth: true as const } : {}),
        ...(cachedFree > 0 ? { cached_free: cachedFree } : {}),
      },
    };
  } catch (error) {
    await hold.release(false);
    throw error;
  }
}

/**
 * A URL's window read, a required one (as search's, docs/engine.md "A window read is a required read"): a
 * store that failed to read while up refuses the call, 503 before anything is reserved, instead of
 * charging a repeat that may be free.
 */
async function isRepeat(deps: ExtractDeps, org: string, key: string): Promise<boolean> {
  try {
    return (await deps.repeats.find(org, key, REQUIRED_READ)) !== undefined;
  } catch (error) {
    throw new CacheUnavailableError(error);
  }
}

const REQUIRED_READ = { required: true } as const;

/**
 * Settles `amount` with the charged URLs' windows opened first (as search does, docs/engine.md "A charged
 * request always leaves its window"): a window the store refuses fails the call (503 cache_unavailable,
 * counted as answered like search's), nothing charged; a
 * settlement that fails or charges 0 withdraws them. Killed in between, the windows stay: the repeat is
 * free and was never charged, never paid twice.
 */
async function settleWithWindows(
  deps: ExtractDeps,
  org: string,
  start: number,
  charged: Target[],
  hold: Hold,
  amount: number,
  paid: number | undefined,
  signal: AbortSignal | undefined,
): Promise<number> {
  const opened: Target[] = [];
  const withdraw = async () => {
    for (const t of opened) await deps.repeats.withdraw(org, t.key).catch(() => {}); // left behind: a free repeat only
  };
  try {
    if ((paid ?? amount) > 0) {
      for (const t of charged) {
        try {
          await deps.repeats.open(org, t.key, start, true);
        } catch (error) {
          await hold.release(true);
          throw new CacheUnavailableError(error);
        }
        opened.push(t);
      }
    }
    // Aborted while the windows were written (the client went away, the server dropped the request):
    // the last wait before the charge, so an error, never charged.
    signal?.throwIfAborted();
    const credits = await hold.settle(amount);
    if (credits === 0) await withdraw();
    return credits;
  } catch (error) {
    await withdraw();
    throw error;
  }
}

/**
 * Each loaded page's part (reading in parts, docs/extract.md), by URL key: `max_chars` shared over the
 * answer's entries in request order. The outcome keeps the full content (it is what the cache keeps).
 */
function partsOf(
  deps: ExtractDeps,
  params: ExtractParams,
  call: Call,
  keys: string[],
  list: Target[],
  outcomes: PageOutcome[],
  signal: AbortSignal,
): Promise<Map<string, PagePart>> {
  const loaded = new Map(list.map((t, i) => [t.key, outcomes[i] as PageOutcome]));
  const pages = keys.flatMap((key) => {
    const o = loaded.get(key);
    return o?.ok ? [{ key, content: o.text }] : [];
  });
  const offload = deps.partOffload ? { run: deps.partOffload, org: call.org, signal } : undefined;
  return pageParts(pages, params.format, params, offload);
}

/**
 * Pages past the answer's budget (output-bounds.ts) fail as `too_large`, before anything is charged.
 * What counts is what is delivered (a page's part when reading in parts). A URL asked for twice is in
 * the answer twice, so it counts twice.
 */
function withinAnswer(
  deps: ExtractDeps,
  params: ExtractParams,
  keys: string[],
  list: Target[],
  outcomes: PageOutcome[],
  parts: Map<string, PagePart> | undefined,
): PageOutcome[] {
  const budget = answerBudget(deps.pages.maxBytes);
  const sizes = outcomes.map((o, i) => {
    if (!o.ok) return 0;
    const key = list[i]!.key;
    const links = params.includeLinks ? (o.links ?? []).reduce((n, l) => n + l.length, 0) : 0;
    return ((parts?.get(key)?.text ?? o.text).length + links) * keys.filter((k) => k === key).length;
  });
  const fits = fitAnswer(sizes, budget);
  return outcomes.map((o, i) =>
    fits[i] || !o.ok ? o : { ok: false, type: 'too_large', statusCode: o.status, error: answerFullMessage(budget) },
  );
}

/** A free repeat is served from its organization's content cache while it holds the page; otherwise fetched again. */
async function fetchTarget(
  deps: ExtractDeps,
  t: Target,
  params: ExtractParams,
  request: { signal: AbortSignal; org: string },
  call: CallTraceContext | undefined,
): Promise<PageOutcome> {
  if (t.free) {
    const cached = await deps.pageCache.get(pageCacheKey(request.org, t.key));
    if (cached?.metadata) {
      const finalUrl = cached.metadata.final_url ?? t.url;
      return {
        ok: true,
        status: cached.status,
        finalUrl,
        mimeType: '',
        text: cached.text,
        metadata: cached.metadata,
        links: cached.links ?? [],
      };
    }
  }
  // Links are always collected: the cached page keeps them for a repeat that asks.
  return withPageLimit(
    deps.pages,
    request,
    (page) => loadPage(deps.pages, { url: t.url, format: params.format, stealth: params.stealth, links: true, page }),
    { url: t.url, outcome: (o) => (o.ok ? 'success' : o.type), call },
  );
}

function resultItem(url: string, outcome: PageOutcome, params: ExtractParams, part: PagePart | undefined): ExtractResultItem {
  const field = params.format === 'html' ? 'html' : 'markdown';
  const flag = params.stealth ? { stealth: true as const } : {};
  if (outcome.ok) {
    const links = params.includeLinks ? { links: outcome.links ?? [] } : {};
    const text = part?.text ?? outcome.text;
    const read = part ? { total_chars: part.totalChars, truncated: part.truncated } : {};
    return { url, success: true, [field]: text, status_code: outcome.status, ...flag, metadata: outcome.metadata, ...links, ...read };
  }
  return {
    url,
    success: false,
    [field]: '',
    status_code: outcome.statusCode,
    error: outcome.error,
    error_type: outcome.type,
    ...flag,
  };
}
