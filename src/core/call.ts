// One engine call as the core sees it: who it is for, when it started, the caller's cancellation, and
// how its credits are held (set by core/books/idempotency.ts for a call with an idempotency key).

import type { CallTraceContext } from '../channels.js';
import type { HoldOptions } from './books/index.js';

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
