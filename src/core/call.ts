// One engine call as the core sees it: who it is for, when it started, the caller's cancellation, and
// how its credits are held (set by core/books/idempotency.ts for a call with an idempotency key). Imports
// nothing from core/books: the books import the call, not the other way round.

import type { CallTraceContext } from '../channels.js';

export interface Call {
  org: string;
  /** Clock time the call started (response_time, repeat windows). */
  start: number;
  /** The caller's `ctx.signal`: aborting it stops the work and rejects with its reason. */
  signal?: AbortSignal | undefined;
  /** Passed to every Credits.hold of the call. */
  billing?: HoldOptions;
  /** The call's websift:search/extract context, when someone listens: its sources, pages and charge name it as their `call`. */
  trace?: CallTraceContext | undefined;
}

/** How one call's credits are held: what core/books/idempotency.ts decided for it (nothing, for a call without a key). */
export interface HoldOptions {
  /** The call's idempotency key: its charge marks the key's claim paid, in the same ledger transaction. */
  idempotencyKey?: string;
  /**
   * An earlier attempt of this very call was charged this much and its answer was lost: reserve,
   * charge and count nothing (it is one request), and report this amount as the charge.
   */
  paid?: number;
}
