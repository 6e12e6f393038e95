// Public types: the ports users implement and the wire shapes of the spec's responses.

/** Time, injected. Every time-based rule reads this and nothing else. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A parsed search query, as handed to every source. */
export interface SearchQuery {
  /** The query as searched (trimmed, whitespace collapsed). */
  q: string;
  /** Quoted phrases, without their quotes. */
  phrases: string[];
  /** Hosts from positive `site:` operators. */
  sites: string[];
  /** Hosts from `-site:` operators. */
  excludedSites: string[];
  /** Extensions from `filetype:` operators, lower-case, without a dot. */
  filetypes: string[];
  /** Remaining plain terms (including `-term` exclusions as written). */
  terms: string[];
}

export interface SourceResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SourceAnswer {
  results: SourceResult[];
  /** True when the source explicitly stated that the query has no results. */
  noResultsNotice?: boolean;
}

export interface SourceContext {
  signal: AbortSignal;
  /** How many results the engine wants. */
  limit: number;
}

/** A search backend. A thrown error, a rejected promise, or an answer after `ctx.signal` aborted is a failure. */
export interface SearchSource {
  readonly id: string;
  search(query: SearchQuery, ctx: SourceContext): Promise<SourceAnswer>;
  /** Its empty answers do not count for multi-phrase (or filetype + phrase) queries. */
  readonly unreliableEmpties?: boolean;
}

/** Who a call is made for. */
export interface CallContext {
  /** The organization the call is made for and charged to (from `engine.authenticate(key)` over HTTP). */
  organization: string;
  /** Cancels the call: work in progress stops and the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * search and extract (usage ignores it): 1–255 printable ASCII characters. A retry with the same key
   * and the same parameters within 24 h answers the first answer again, charged and counted once; the
   * same key with other parameters is refused (400). See docs/engine.md, "Idempotency keys".
   */
  idempotencyKey?: string;
}

// ---- Requests (exactly the wire JSON; src/schema/ describes them and the engine validates them) ----

/**
 * The search request body. Its type is what the API documents; at run time the engine also takes `null`
 * for an absent field and the GET query-string spellings (`include_content: 'true'`, `content_results: '5'`),
 * and answers anything else with a 400 listing every problem.
 */
export interface SearchParams {
  /** The query: 1–2,000 characters after trimming and collapsing whitespace. */
  q: string;
  /** Fetch the result pages' main content as Markdown (default false). */
  include_content?: boolean;
  /** How many result pages to fetch with include_content: an integer from 1 to 10 (default 5). */
  content_results?: number;
  /** @deprecated Ignored (search routes automatically); the HTTP answer carries a Deprecation header. */
  engine?: unknown;
  /** @deprecated Ignored (search routes automatically); the HTTP answer carries a Deprecation header. */
  engines?: unknown;
}

/** The extract request body (see SearchParams for the spellings the engine also accepts at run time). */
export interface ExtractParams {
  /** 1–10 absolute http/https URLs of at most 2,048 characters. */
  urls: string[];
  /** Default 'markdown'. */
  format?: 'markdown' | 'html';
  /** Full-browser rendering (5 credits per page); unavailable (400 stealth_unavailable) from 2026-11-01. */
  stealth?: boolean;
  /** Add each page's links (absolute, deduplicated) to its result as `links` (default false). */
  include_links?: boolean;
}

/** The search request body (an earlier name of SearchParams). */
export type SearchRequest = SearchParams;
/** The extract request body (an earlier name of ExtractParams). */
export type ExtractRequest = ExtractParams;

// ---- Responses ----

/**
 * What a page says about itself (docs/extract.md, "Page metadata"). Each field is present only when
 * the page states it; `final_url` (the URL after redirects) is on every successful result.
 */
export interface PageMetadata {
  title?: string;
  description?: string;
  /** A language tag (BCP 47), e.g. `en`, `pt-BR`. */
  language?: string;
  /** ISO 8601: `YYYY-MM-DD`, a UTC time `…Z` when the page gave an offset, else its local time without one. */
  published_time?: string;
  modified_time?: string;
  site_name?: string;
  /** Absolute http(s) URL. */
  canonical_url?: string;
  /** Absolute URL of the page after redirects. */
  final_url?: string;
}

export interface SearchResultItem {
  title: string;
  url: string;
  snippet: string;
  position: number;
  engine: 'auto';
  content?: string;
  content_error?: ContentError;
  /** Only beside `content`. */
  metadata?: PageMetadata;
}

export type ContentError =
  | 'blocked'
  | 'robots_disallowed'
  | 'timeout'
  | 'http'
  | 'unsupported_content_type'
  | 'too_large'
  | 'network'
  | 'empty';

/** Metadata of a search answer with results (`status: 'success'`). */
export interface SearchMetadata {
  number_of_results: number;
  credits_used: number;
  from_cache: boolean;
  status: 'success';
  response_time: number;
  timestamp: string;
  /** Only on include_content requests. */
  content_requested?: number;
  /** Only on include_content requests. */
  content_delivered?: number;
}

/** Metadata of an empty search answer (`status: 'no_results'`). */
export interface EmptySearchMetadata extends Omit<SearchMetadata, 'status'> {
  status: 'no_results';
  /** The empty answer was confirmed by enough sources (and so charged and cached). */
  no_results_verified: boolean;
  charged: boolean;
  message: string;
}

export interface SearchResponse {
  id: string;
  query: string;
  engines: ['auto'];
  results: SearchResultItem[];
  metadata: SearchMetadata;
}

export interface EmptySearchResponse {
  query: string;
  results: [];
  message: string;
  metadata: EmptySearchMetadata;
}

/**
 * What `engine.search` resolves with. `r.metadata.status` narrows `r.metadata`; TypeScript does not
 * narrow `r` itself on a nested field, so narrow it with `'id' in r` (only SearchResponse has an id).
 */
export type SearchAnswer = SearchResponse | EmptySearchResponse;

/** Every `code` an error body (and WebsiftError.code) can carry. */
export type ErrorCode =
  | 'invalid_request'
  | 'stealth_unavailable'
  | 'organization_exists'
  | 'unauthorized'
  | 'unknown_organization'
  | 'insufficient_credits'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_in_progress'
  | 'payload_too_large'
  | 'rate_limited'
  | 'internal_error'
  | 'search_unavailable'
  | 'ledger_unavailable'
  | 'rate_limiter_unavailable'
  | 'timeout';

export interface ErrorMetadata {
  status: 'error';
  response_time: number;
  timestamp: string;
}

export type ExtractErrorType =
  | 'http'
  | 'unsupported_content_type'
  | 'too_large'
  | 'robots_disallowed'
  | 'blocked_address'
  | 'timeout'
  | 'network'
  | 'too_many_redirects'
  | 'invalid_url';

export interface ExtractResultItem {
  url: string;
  success: boolean;
  markdown?: string;
  html?: string;
  status_code: number;
  error?: string;
  error_type?: ExtractErrorType;
  stealth?: true;
  /** Successful results only. */
  metadata?: PageMetadata;
  /** Successful results of a request with `include_links: true` only: absolute http(s) links, in document order. */
  links?: string[];
}

export interface ExtractMetadata {
  total_urls: number;
  processed_urls: number;
  successful_crawls: number;
  failed_crawls: number;
  credits_used: number;
  response_time: number;
  timestamp: string;
  stealth?: true;
  cached_free?: number;
}

export interface ExtractResponse {
  success: boolean;
  results: ExtractResultItem[];
  metadata: ExtractMetadata;
}

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
   * @param params The wire body: `{ q, include_content?, content_results? }` (validated here).
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
   * @param params The wire body: `{ urls, format?, stealth?, include_links? }` (validated here).
   * @returns One result per URL, in order, and the credits charged.
   * @throws {UnauthorizedError} 401 `unknown_organization`.
   * @throws {RateLimitError} 429: retry after `rateLimit.retryAfter` seconds.
   * @throws {InvalidRequestError} 400 (`stealth_unavailable` for `stealth: true` after its removal date).
   * @throws {InsufficientCreditsError} 402.
   * @throws {IdempotencyInProgressError} 409.
   * @throws {ExtractTimeoutError} 504: the request deadline passed; nothing charged, retry.
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
