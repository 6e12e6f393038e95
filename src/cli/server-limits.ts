// The connection limits of `websift serve`, in one place: what a client may hold without finishing a
// request. With node:http's own defaults a connection that never sends a byte was kept for minutes
// (none of 500 closed in 100 s), and a request body could trickle for 300 s.

export interface ServerLimits {
  /** Open connections at most; the ones over it are closed on accept. */
  maxConnections: number;
  /** A connection waiting for its first request, or for the next one after a reply (keep-alive), is closed after this. */
  idleTimeoutMs: number;
  /** From a request's first byte to the end of its headers. */
  headersTimeoutMs: number;
  /** From a request's first byte to the end of its body (the reply's own time is not counted). */
  requestTimeoutMs: number;
}

/** docs/cli.md "Connection limits" states these; test/cli/serve-limits.test.ts checks both agree. */
export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = {
  maxConnections: 1000,
  idleTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
};

/** How often node:http looks for requests past their header or request timeout (its default is 30 s). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** Throws a RangeError naming the first limit out of range. */
export function checkServerLimits(limits: ServerLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  // node:http refuses this pairing: the headers are part of the request.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new RangeError(
      `the header timeout (${limits.headersTimeoutMs} ms) must not be longer than the request timeout (${limits.requestTimeoutMs} ms)`,
    );
  }
}
