// The engine's surface: its methods, usage, organizations and the sources' health.

import type { ExtractResponse } from './extract.js';
import type { CallContext, ExtractParams, SearchParams } from './requests.js';
import type { SearchAnswer } from './search.js';

export interface UsageResponse {
  organization: string;
  credits: { balance: number; used: number };
  requests: { search: number; extract: number; total: number; free: number };
  timestamp: string;
}

// ---- The engine ----

export interface OrganizationInfo {
  id: string;
  balance: number;
  used: number;
}

export interface SourceHealth {
  id: string;
  /** closed: in use; open: skipped until its cool-down ends; half_open: one trial allowed. */
  state: 'closed' | 'open' | 'half_open';
  errorRate: number;
  latencyMs: number;
  consecutiveFailures: number;
  suspendedUntil?: string;
}

/** `engine.stats()`: the conversion pool (pages waiting for a worker, converting, the most at once, utilization 0–1). */
export interface EngineStats {
  conversion: { queued: number; converting: number; capacity: number; utilization: number };
}

/** One readiness check: the service answered (`ok`) or not (`failing`, with why), and how long it took. */
export interface ReadinessCheck {
  status: 'ok' | 'failing';
  latency_ms: number;
  error?: string;
}

/** `engine.readiness()`: ready when every check answers; `checks` names each (`database`, `redis`). */
export interface Readiness {
  ready: boolean;
  checks: Record<string, ReadinessCheck>;
}

/**
 * A websift engine, made by `createEngine`. Every rejection of `search`, `extract` and `usage` is a
 * `WebsiftError` whose `status`, `code` and `body` are what the HTTP API answers (plus the abort reason
 * of `ctx.signal`, or an `Error` once the engine is closed). Errors with `retryable: true` are safe to
 * retry: nothing was charged.
 */
export interface Engine {
  /**
   * Runs a search for `ctx.organization`: routed across the sources, charged per the billing rules
   * (1 credit; 2 more per page of content; free repeats within 5 minutes).
   * @param params The wire body: `{ q, include_content?, content_results?, max_chars? }` (validated here);
   *   `max_chars` bounds include_content's pages, each giving its passages most relevant to `q`.
   * @returns The results, or an empty answer (`metadata.status: 'no_results'`, `results: []`, with a
   *   `message` saying whether it was confirmed and charged).
   * @throws {UnauthorizedError} 401 `unknown_organization`: `ctx.organization` does not exist.
   * @throws {RateLimitError} 429: retry after `rateLimit.retryAfter` seconds.
   * @throws {InvalidRequestError} 400: bad parameters or idempotency key (`problems` names each field).
   * @throws {InsufficientCreditsError} 402: the balance cannot cover the request's worst case.
   * @throws {IdempotencyInProgressError} 409: the same idempotency key is still running; retry shortly.
   * @throws {SearchUnavailableError} 503: every source failed after retries; retry later.
   * @throws {LedgerUnavailableError} 503: the books were locked or unreachable; retry later.
   * @throws {RateLimiterUnavailableError} 503: a shared rate limiter could not decide; retry later.
   */
  search(params: SearchParams, ctx: CallContext): Promise<SearchAnswer>;
  /**
   * Fetches 1–10 URLs and converts each page to Markdown (or returns its HTML): a page that fails is
   * reported in its own result (`error_type`), uncharged; the others are unaffected.
   * @param params The wire body: `{ urls, format?, stealth?, include_links?, max_chars?, start_char?, query? }`
   *   (validated here). The last three read pages in parts (docs/extract.md, "Reading in parts"): a budget
   *   over all pages, an offset into each, or each page's passages most relevant to a query; reading on
   *   within 5 minutes is a free repeat.
   * @returns One result per URL, in order, and the credits charged (with reading in parts, each
   *   successful result also carries `total_chars` and `truncated`).
   * @throws {UnauthorizedError} 401 `unknown_organization`.
   * @throws {RateLimitError} 429: retry after `rateLimit.retryAfter` seconds.
   * @throws {InvalidRequestError} 400 (`stealth_unavailable` for `stealth: true` after its removal date).
   * @throws {InsufficientCreditsError} 402.
   * @throws {IdempotencyInProgressError} 409.
   * @throws {ExtractTimeoutError} 504: the request deadline passed; nothing charged, retry.
   * @throws {CacheUnavailableError} 503: the repeat windows' shared store (Redis) did not answer while up; retry (a repeat then is free).
   * @throws {LedgerUnavailableError} 503: the books were locked or unreachable; retry later.
   * @throws {RateLimiterUnavailableError} 503: a shared rate limiter could not decide; retry later.
   */
  extract(params: ExtractParams, ctx: CallContext): Promise<ExtractResponse>;
  /**
   * The organization's balance and request counts (free, but rate limited).
   * @throws {UnauthorizedError} 401 `unknown_organization`.
   * @throws {RateLimitError} 429.
   * @throws {LedgerUnavailableError} 503.
   * @throws {RateLimiterUnavailableError} 503.
   */
  usage(ctx: CallContext): Promise<UsageResponse>;
  /**
   * Which organization an API key belongs to, or `null` for an unknown, malformed or revoked key.
   * Live keys are cached for 5 s (a revocation by this engine applies at once).
   */
  authenticate(key: string): Promise<{ organization: string } | null>;
  /** Administration: organizations, credits and API keys. Not rate limited. */
  readonly admin: {
    /**
     * Creates an organization with an opening balance (default 0 credits).
     * @throws {InvalidRequestError} 400 `organization_exists` when the id is taken (check
     *   `listOrganizations` first to make a setup re-runnable); `invalid_request` for an id that is not
     *   1–128 characters without control characters or surrounding spaces, or credits that are not a
     *   non-negative integer.
     */
    createOrganization(id: string, options?: { credits?: number }): Promise<void>;
    /**
     * Adds credits to an organization. Resolves to the new balance.
     * @throws {InvalidRequestError} 400 when `credits` is not a non-negative integer.
     * @throws {UnauthorizedError} 401 `unknown_organization`.
     */
    addCredits(id: string, credits: number): Promise<number>;
    /** Every organization with its balance and credits used, in no particular order. */
    listOrganizations(): Promise<OrganizationInfo[]>;
    /**
     * A new API key (`ws_live_…`) for the organization. The plaintext key, returned once; only its hash is stored.
     * @throws {UnauthorizedError} 401 `unknown_organization`.
     */
    createApiKey(organization: string): Promise<string>;
    /** Resolves true when a live key was revoked (false for an unknown or already revoked key); other instances sharing the books drop it within 5 s, at once with `keyEvents`. */
    revokeApiKey(key: string): Promise<boolean>;
  };
  /**
   * Whether the services calls need answer now: the books' database (`database`: SQLite or PostgreSQL,
   * unless a ledger was injected) and Redis (`redis`, when configured). Live checks of at most 1 s each;
   * an answer is reused for 1 s. Never rejects. What `/readyz` answers (docs/operating.md).
   */
  readiness(): Promise<Readiness>;
  /** The engine's load now, for metrics (websift/metrics reads it at each scrape). */
  stats(): EngineStats;
  /** Health snapshot of each configured source, in the configured order. */
  sources(): SourceHealth[];
  /** The rate-limit policy, for headers. */
  readonly rateLimit: { limit: number; window: number };
  /**
   * Lets calls in progress finish, then closes what the engine opened (its database, caches, worker
   * threads, fetcher and browser; never an injected port). Idempotent; later calls reject.
   */
  close(): Promise<void>;
}
