// createEngine: wires the storage (engine/storage.ts: SQLite or PostgreSQL, in-process or Redis), the
// system clock, the router and the extraction pipeline to the core and guards every call the same way: organization → rate limit →
// the work (search: core/search/search.ts; extract: core/extract/run-extract.ts, both under the call's
// idempotency key: core/books/idempotency.ts), with error timing.

import { systemClock } from '../adapters/system-clock.js';
import {
  CallTrace,
  type CallTraceContext,
  channels,
  publishSettled,
  REQUEST_TRACE,
  type TracedCallContext,
  tracedSettledByWork,
} from '../channels.js';
import { Accounts, Credits, RepeatWindows, runIdempotent } from '../core/books/index.js';
import { parseExtractParams } from '../core/extract/params.js';
import { type ExtractDeps, runExtract } from '../core/extract/run-extract.js';
import { admit } from '../core/rate-limit.js';
import { createRouter } from '../core/router/index.js';
import {
  type Admission,
  ConfirmedEmptyCache,
  parseSearchParams,
  runSearch,
  type SearchDeps,
  type SearchSnapshot,
} from '../core/search/index.js';
import { stampError } from '../core/timing.js';
import { UnauthorizedError, WebsiftError } from '../errors.js';
import type { CallContext, Engine, ExtractResponse, SearchAnswer } from '../types/index.js';
import { createExtraction } from './extraction.js';
import { checkEngineOptions, DEFAULT_RESULTS_PER_SEARCH, type EngineOptions } from './options.js';
import { readinessOf } from './readiness.js';
import { createStorage } from './storage.js';

export type { EngineOptions } from './options.js';

type Work<T> = (organization: string, start: number, admission: Admission) => Promise<T>;

/** The admission of an engine without a rate limit: nothing to take. */
const admitted = (): Promise<void> => Promise.resolve();

function callTraceContext(kind: 'search' | 'extract', ctx: CallContext): CallTraceContext {
  const request = (ctx as (CallContext & TracedCallContext) | undefined)?.[REQUEST_TRACE];
  return new CallTrace(kind, String(ctx?.organization), request);
}

/**
 * Creates a search-and-extraction engine: the books (credits, API keys, counters) in SQLite (default
 * in memory) or PostgreSQL, the search router over `sources`, and the page-extraction pipeline. Bad
 * options throw here, before any database is opened; nothing touches the network until a call needs it.
 * Close it with `engine.close()`.
 *
 * @param options See {@link EngineOptions}; every option is optional.
 * @returns The engine: `search`, `extract`, `usage`, `authenticate`, `admin.*`, `sources()`, `close()`.
 * @throws {TypeError} An option of the wrong type, or options that don't go together (naming the option).
 * @throws {RangeError} A number or date out of its range (naming the option).
 * @example
 * ```ts
 * const engine = createEngine({ database: './websift.db', sources: [localIndex({ database: './websift.db' })] });
 * await engine.admin.createOrganization('acme', { credits: 100 });
 * const answer = await engine.search({ q: 'getting started' }, { organization: 'acme' });
 * ```
 */
export function createEngine(options: EngineOptions = {}): Engine {
  checkEngineOptions(options);
  const clock = options.clock ?? systemClock;
  // Everything that can refuse its options is built before the database is opened.
  const router = createRouter(options.sources ?? [], { ...options.router, clock });
  const extraction = createExtraction(options, clock);
  const storage = createStorage(options, clock);
  const { ledger, limiter, flights } = storage;
  const accounts = new Accounts(ledger, storage.keys, clock, storage.keyEvents ? { events: storage.keyEvents } : {});
  const repeatStore = storage.repeats;
  const credits = new Credits(ledger, clock);
  const idempotency = { ledger, clock };
  const searchDeps: SearchDeps = {
    clock,
    router,
    credits,
    repeats: new RepeatWindows<SearchSnapshot>(repeatStore, clock, 'search'),
    empties: new ConfirmedEmptyCache(storage.empties, clock),
    resultsPerSearch: options.resultsPerSearch ?? DEFAULT_RESULTS_PER_SEARCH,
    flights,
    ...(storage.coordination ? { coordination: storage.coordination } : {}),
    contentFetcher: options.contentFetcher ?? extraction.contentFetcher,
    partOffload: extraction.partOffload,
  };
  const extractDeps: ExtractDeps = {
    clock,
    credits,
    repeats: new RepeatWindows<true>(repeatStore, clock, 'extract'),
    pageCache: storage.pages ?? extraction.pageCache,
    pages: extraction.pages,
    flights,
    deadlineMs: extraction.deadlineMs,
    concurrency: extraction.concurrency,
    stealthRemovedAt: extraction.stealthRemovedAt,
    partOffload: extraction.partOffload,
  };
  let closed = false;
  let closing: Promise<void> | undefined;
  /** Lets calls in progress finish, then closes what the engine created (never an injected port). */
  async function shutDown(): Promise<void> {
    await Promise.allSettled([...inFlight]);
    accounts.close();
    await Promise.all([extraction.pageCache.close?.(), extraction.close()]);
    await storage.close();
  }
  /** Calls in progress, so close() can let them finish before the database goes away. */
  const inFlight = new Set<Promise<unknown>>();

  /** Admin calls: not rate limited, but their errors carry timing like every other. */
  async function stamped<T>(work: () => Promise<T>): Promise<T> {
    const start = clock.now();
    try {
      return await work();
    } catch (error) {
      throw stampError(error, clock, start);
    }
  }

  /**
   * Every call on behalf of an organization: checked, rate limited, errors stamped with timing. With
   * `ownAdmission` the work takes the rate limit itself (`admission`): a coordinated search joins the take
   * to its other Redis reads.
   */
  function guarded<T>(ctx: CallContext, work: Work<T>, ownAdmission = false, trace?: CallTraceContext): Promise<T> {
    const call = guardedCall(ctx, work, ownAdmission);
    inFlight.add(call);
    if (trace === undefined) {
      const forget = () => inFlight.delete(call);
      call.then(forget, forget);
    } else {
      // A traced call's settlement is published from this reaction (registered before the caller's await,
      // as traced()'s would be), not from a reaction, closures and promise of traced()'s (tracedSettledByWork).
      call.then(
        (result) => {
          inFlight.delete(call);
          publishSettled(channels[trace.kind], trace, false, result, finishCall);
        },
        (error: unknown) => {
          inFlight.delete(call);
          publishSettled(channels[trace.kind], trace, true, error, finishCall);
        },
      );
    }
    return call;
  }

  async function guardedCall<T>(ctx: CallContext, work: Work<T>, ownAdmission: boolean): Promise<T> {
    const start = clock.now();
    try {
      if (closed) throw new Error('websift: the engine is closed');
      const organization = ctx?.organization;
      if (typeof organization !== 'string') {
        throw new UnauthorizedError('ctx.organization must name an organization', 'unknown_organization');
      }
      ctx.signal?.throwIfAborted();
      await accounts.require(organization);
      // The take's time: read again after the organization check (it may have waited on the store); with
      // neither a rate limit nor a coordinated search nothing reads it, and the call's start does.
      const now = limiter || searchDeps.coordination ? clock.now() : start;
      const admission: Admission = { now, admit: limiter ? () => admit(limiter, organization, now) : admitted };
      if (!ownAdmission && limiter) await admission.admit();
      return await work(organization, start, admission);
    } catch (error) {
      throw stampError(error, clock, start);
    }
  }

  /**
   * A call on the websift:search / websift:extract channel (when someone listens): organization and the
   * HTTP request it answers, then credits and outcome. `work` gets the context to hand down (Call.trace).
   */
  function tracedCall<T extends SearchAnswer | ExtractResponse>(
    kind: 'search' | 'extract',
    ctx: CallContext,
    work: (trace: CallTraceContext | undefined, settles: boolean) => Promise<T>,
  ): Promise<T> {
    return tracedSettledByWork(
      channels[kind],
      () => callTraceContext(kind, ctx),
      // The work's own promise, traced or not: finishCall fills the context in, not a wrapper's await; the
      // work (guarded) publishes the settlement when `settles`.
      work,
      finishCall,
    );
  }

  return {
    search: (params, ctx) =>
      tracedCall('search', ctx, (trace, settles) =>
        guarded(
          ctx,
          async (org, start, admission) => {
            // Coordinated: the rate limit is taken with the search's first Redis reads (one round trip).
            // Not with an idempotency key: its claim in the ledger comes between the two.
            const coordinated = searchDeps.coordination !== undefined && ctx.idempotencyKey === undefined;
            if (!coordinated && limiter) await admission.admit();
            let parsed: ReturnType<typeof parseSearchParams>;
            try {
              parsed = parseSearchParams(params);
            } catch (error) {
              if (coordinated) await admission.admit(); // a bad request is rate limited before it is refused, as always
              throw error;
            }
            const call = { org, start, signal: ctx.signal, trace };
            // No key (the common call): nothing to claim, and no fingerprint to take.
            if (ctx.idempotencyKey === undefined) return runSearch(searchDeps, parsed, call, coordinated ? admission : undefined);
            const { deprecatedEngine: _ignored, ...identity } = parsed; // `engine` is ignored: not part of the call
            return runIdempotent(idempotency, 'search', identity, call, ctx.idempotencyKey, (c) =>
              runSearch(searchDeps, parsed, c, coordinated ? admission : undefined),
            );
          },
          true,
          settles ? trace : undefined,
        ),
      ),
    extract: (params, ctx) =>
      tracedCall('extract', ctx, (trace, settles) =>
        guarded(
          ctx,
          (org, start) => {
            const parsed = parseExtractParams(params);
            const call = { org, start, signal: ctx.signal, trace };
            return runIdempotent(idempotency, 'extract', parsed, call, ctx.idempotencyKey, (c) => runExtract(extractDeps, parsed, c));
          },
          false,
          settles ? trace : undefined,
        ),
      ),
    usage: (ctx) => guarded(ctx, (org) => accounts.usage(org)),
    authenticate: (key) => accounts.authenticate(key),
    admin: {
      createOrganization: (id, opts) => stamped(() => accounts.createOrganization(id, opts)),
      addCredits: (id, credits) => stamped(() => accounts.addCredits(id, credits)),
      listOrganizations: () => stamped(() => accounts.listOrganizations()),
      createApiKey: (org) => stamped(() => accounts.createApiKey(org)),
      revokeApiKey: (key) => stamped(() => accounts.revokeApiKey(key)),
    },
    readiness: readinessOf(storage.probes, clock),
    stats: () => ({ conversion: extraction.stats() }),
    sources: () => router.health(),
    rateLimit: limiter ? { ...limiter.policy } : { limit: 0, window: 0 },
    /** Idempotent: every call resolves when the one shutdown has finished. */
    close() {
      closed = true;
      return (closing ??= shutDown());
    },
  };
}

/** A call's credits, outcome and cache use on its websift:search/extract context, before its end is published. */
function finishCall(context: CallTraceContext, failed: boolean, value: unknown): void {
  if (failed) {
    context.credits = 0;
    context.outcome = value instanceof WebsiftError ? value.code : 'error';
    return;
  }
  const { metadata } = value as SearchAnswer | ExtractResponse;
  context.credits = metadata.credits_used;
  if ('status' in metadata) {
    context.outcome = metadata.status;
    context.cache = { lookups: 1, hits: metadata.from_cache ? 1 : 0 };
  } else {
    context.outcome = 'success';
    context.cache = { lookups: metadata.processed_urls, hits: metadata.cached_free ?? 0 };
  }
}
