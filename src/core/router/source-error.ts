// The error a source adapter throws when a provider refuses or fails a call, with a reason the router
// can act on: auth / quota / config suspend the source, rate_limited honours Retry-After, the rest are
// ordinary failures (retried with backoff, counted by the circuit breaker).

export type SourceErrorReason = 'rate_limited' | 'quota' | 'auth' | 'config' | 'unavailable' | 'bad_response';

export interface SourceErrorOptions {
  reason: SourceErrorReason;
  /** How long the provider asked us to wait (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** The provider's HTTP status, when there was one. */
  status?: number;
  cause?: unknown;
}

/** Reasons that need a person (new key, more quota, fixed settings): retrying soon cannot help. */
const SUSPENDING: ReadonlySet<SourceErrorReason> = new Set(['auth', 'quota', 'config']);

/**
 * What a search source throws when its provider refuses or fails a call; throw it from your own
 * `SearchSource` too. The router acts on `reason`: `auth`, `quota` and `config` suspend the source (for
 * `retryAfterMs`, else an hour) because a person must act; `rate_limited` skips it for `retryAfterMs`
 * (else the breaker's cool-down); `unavailable` and `bad_response` are retried and counted by the circuit
 * breaker. Any other error counts as `unavailable`. Never reaches the engine's caller: a search whose
 * sources all failed answers `SearchUnavailableError`.
 */
export class SourceError extends Error {
  override name = 'SourceError' as const;
  /** Why the call failed; decides how the router treats the source. */
  readonly reason: SourceErrorReason;
  /** How long the provider asked to wait (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  /** The provider's HTTP status, when there was one. */
  readonly status?: number;

  constructor(message: string, options: SourceErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason;
    if (options.retryAfterMs !== undefined && Number.isFinite(options.retryAfterMs) && options.retryAfterMs >= 0) {
      this.retryAfterMs = options.retryAfterMs;
    }
    if (options.status !== undefined) this.status = options.status;
  }

  /** True when the source should be suspended (auth, quota, config). */
  get suspends(): boolean {
    return SUSPENDING.has(this.reason);
  }
}

/** True for a `SourceError`. */
export const isSourceError = (e: unknown): e is SourceError => e instanceof SourceError;

/** The per-attempt timeout fired before the source answered. */
export class SourceTimeoutError extends Error {
  override name = 'SourceTimeoutError' as const;
  readonly timeoutMs: number;
  constructor(source: string, timeoutMs: number) {
    super(`Source "${source}" did not answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The whole route ran out of time (RouterOptions.deadlineMs). */
export class RouteDeadlineError extends Error {
  override name = 'RouteDeadlineError' as const;
  constructor(deadlineMs: number) {
    super(`The search deadline of ${deadlineMs} ms passed`);
  }
}
