// The error hierarchy: every non-200 outcome of the engine is one of these.
// `.body` is exactly the JSON the HTTP binding sends.

import type { ErrorCode, ErrorMetadata } from './types/index.js';

export interface ErrorBody {
  status: 'error';
  error: string;
  code: ErrorCode;
  retryable: boolean;
  metadata: ErrorMetadata;
  [field: string]: unknown;
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** Stamps an error body with timing; the engine fills these from its Clock. */
export interface ErrorTiming {
  response_time: number;
  timestamp: string;
}

const noTiming = (): ErrorTiming => ({ response_time: 0, timestamp: new Date(0).toISOString() });

/**
 * Base class of every error the engine answers with: `status` is the HTTP status, `code` a stable
 * machine-readable reason, `retryable` whether retrying the same call may succeed (nothing was charged),
 * and `body` the exact JSON the HTTP binding sends. Catch it (or test with `isWebsiftError`) and branch
 * on `code` or the subclass.
 */
export class WebsiftError extends Error {
  override name = 'WebsiftError';
  /** HTTP status of the answer (400, 401, 402, 409, 429, 503, 504…). */
  readonly status: number;
  /** Stable reason, e.g. `invalid_request`, `insufficient_credits`, `rate_limited`. */
  readonly code: ErrorCode;
  /** True when the same call may succeed later (rate limits, outages, timeouts): nothing was charged. */
  readonly retryable: boolean;
  /** Extra fields of the body beyond the common shape. */
  readonly extra: Record<string, unknown>;
  /** When the call started and how long it took (filled by the engine from its clock). */
  timing: ErrorTiming;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { retryable?: boolean; extra?: Record<string, unknown>; timing?: ErrorTiming; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.extra = options.extra ?? {};
    this.timing = options.timing ?? noTiming();
  }

  /** The error body the HTTP API sends: `{ status: 'error', error, code, retryable, …, metadata }`. */
  get body(): ErrorBody {
    return {
      status: 'error',
      error: this.message,
      code: this.code,
      retryable: this.retryable,
      ...this.extra,
      metadata: { status: 'error', ...this.timing },
    };
  }
}

/**
 * 400: the request is malformed (bad or missing fields, a reused idempotency key with other parameters,
 * `stealth: true` after its removal date: code `stealth_unavailable`, an existing organization id: code
 * `organization_exists`). `problems` names every bad field. Not retryable: fix the request. Nothing was
 * charged or counted.
 */
export class InvalidRequestError extends WebsiftError {
  override name = 'InvalidRequestError' as const;
  /** Every bad field with what is wrong with it, e.g. `{ field: 'urls[2]', message: '…' }`. */
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[], code: ErrorCode = 'invalid_request') {
    const text = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
    super(400, code, `Invalid request: ${text}`, { extra: { problems } });
    this.problems = problems;
  }
}

/**
 * 401: over HTTP a missing, unknown or revoked API key (`unauthorized`); in process an organization that
 * does not exist (`unknown_organization`). Not retryable: use a valid key or create the organization.
 */
export class UnauthorizedError extends WebsiftError {
  override name = 'UnauthorizedError' as const;
  constructor(message = 'Missing or invalid API key', code: 'unauthorized' | 'unknown_organization' = 'unauthorized') {
    super(401, code, message);
  }
}

/**
 * 402: the balance cannot cover the worst case of the request (credits are reserved before the work and
 * only the actual price is charged). Not retryable as is: add credits (`engine.admin.addCredits`) or ask
 * for less (fewer URLs, no `include_content`). Nothing was charged.
 */
export class InsufficientCreditsError extends WebsiftError {
  override name = 'InsufficientCreditsError' as const;
  /** Credits the request could cost at most. */
  readonly creditsRequired: number;
  /** Credits available now (balance minus other calls' reservations). */
  readonly creditsAvailable: number;
  constructor(required: number, available: number) {
    super(402, 'insufficient_credits', `This request needs up to ${required} credits; ${available} available`, {
      extra: { credits_required: required, credits_available: available },
    });
    this.creditsRequired = required;
    this.creditsAvailable = available;
  }
}

export interface RateLimitInfo {
  /** Seconds until a request would be admitted (rounded up, at least 1). */
  retryAfter: number;
  /** Burst size (bucket capacity). */
  limit: number;
  /** Window of the policy in seconds. */
  window: number;
}

/**
 * 429: the organization's rate limit (default burst 20, 10 requests/s) refused the call. Retryable after
 * `rateLimit.retryAfter` seconds (the `Retry-After` header over HTTP). Nothing was charged or counted.
 */
export class RateLimitError extends WebsiftError {
  override name = 'RateLimitError' as const;
  /** When to retry, and the policy that refused. */
  readonly rateLimit: RateLimitInfo;
  constructor(info: RateLimitInfo) {
    super(429, 'rate_limited', `Rate limit exceeded; retry in ${info.retryAfter} s`, {
      retryable: true,
      extra: { retry_after: info.retryAfter },
    });
    this.rateLimit = info;
  }
}

/**
 * 503: every search source failed or timed out, after the router's automatic retries and fallback.
 * Retryable: try again after a few seconds (sources recover on their own; `engine.sources()` shows their
 * health). Nothing was charged. Its body has no `code`, as the public API's search error never had one.
 */
export class SearchUnavailableError extends WebsiftError {
  override name = 'SearchUnavailableError' as const;
  constructor(message = 'The search could not be completed after automatic retries. Please try again.', cause?: unknown) {
    super(503, 'search_unavailable', message, { retryable: true, cause });
  }
  /** Exactly the spec's search error response (no `code`). */
  override get body(): ErrorBody {
    return {
      status: 'error',
      error: this.message,
      retryable: true,
      metadata: { status: 'error', ...this.timing },
    } as ErrorBody;
  }
}

/**
 * 504: the extract request did not finish within its deadline (`extractDeadlineMs`, default 30 s).
 * Retryable (perhaps with fewer URLs); nothing was charged. Pages that merely time out on their own are
 * reported per URL (`error_type: 'timeout'`) instead.
 */
export class ExtractTimeoutError extends WebsiftError {
  override name = 'ExtractTimeoutError' as const;
  constructor(deadlineMs: number) {
    super(504, 'timeout', `The extract request did not finish within ${deadlineMs} ms; nothing was charged`, {
      retryable: true,
    });
  }
}

/**
 * The credit ledger (or key store) could not be written within its lock wait: another writer (a bulk
 * index add, another process) held the database. Nothing was charged; retrying later is safe.
 */
export class LedgerUnavailableError extends WebsiftError {
  override name = 'LedgerUnavailableError' as const;
  constructor(
    message = 'The credit ledger is busy (its database is locked by another writer); nothing was charged. Please retry.',
    cause?: unknown,
  ) {
    super(503, 'ledger_unavailable', message, { retryable: true, cause });
  }
}

/**
 * Raised by search and extract when their idempotency key is being used right now by a call still
 * running (on this instance or another sharing the ledger): the first use has not answered yet. Nothing
 * was charged for this call; retry with the same key after a moment to get the first answer.
 */
export class IdempotencyInProgressError extends WebsiftError {
  override name = 'IdempotencyInProgressError' as const;
  constructor() {
    super(
      409,
      'idempotency_in_progress',
      'A request with this idempotency key is still running; retry shortly to get its answer. Nothing was charged.',
      {
        retryable: true,
      },
    );
  }
}

/**
 * A shared rate limiter (Redis) could not decide whether to admit the request (its store is down or
 * slow). Nothing was done or charged; retrying later is safe.
 */
export class RateLimiterUnavailableError extends WebsiftError {
  override name = 'RateLimiterUnavailableError' as const;
  constructor(cause?: unknown) {
    super(503, 'rate_limiter_unavailable', 'The rate limiter is unavailable; nothing was charged. Please retry.', {
      retryable: true,
      cause,
    });
  }
}

/**
 * 503: the shared store of repeat windows (a `CacheStore`, e.g. Redis) could not be read or written while
 * it was up (a timeout on a live connection, a first connection not made in time), so the call could not
 * tell, or record, whether it is a free repeat. Raised by extract before anything is reserved (the window
 * read) or before the charge (the window write). Nothing was charged; retrying is safe, and a retry within
 * 5 minutes of the charged request is the free repeat. (A search refused the same way answers the spec's
 * search 503 instead.)
 */
export class CacheUnavailableError extends WebsiftError {
  override name = 'CacheUnavailableError' as const;
  constructor(cause?: unknown) {
    super(503, 'cache_unavailable', 'The repeat-window store did not answer in time; nothing was charged. Please retry.', {
      retryable: true,
      cause,
    });
  }
}

/** True for any error the engine answers with (a `WebsiftError` or subclass). */
export const isWebsiftError = (e: unknown): e is WebsiftError => e instanceof WebsiftError;
/** True for a 429 `RateLimitError`: retry after `error.rateLimit.retryAfter` seconds. */
export const isRateLimitError = (e: unknown): e is RateLimitError => e instanceof RateLimitError;
/** True for a 400 `InvalidRequestError`: fix the request (`error.problems` names each field). */
export const isInvalidRequestError = (e: unknown): e is InvalidRequestError => e instanceof InvalidRequestError;
