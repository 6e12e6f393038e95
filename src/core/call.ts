// One engine call as the core sees it: who it is for, when it started, and the caller's cancellation.

export interface Call {
  org: string;
  /** Clock time the call started (response_time, repeat windows). */
  start: number;
  /** The caller's `ctx.signal`: aborting it stops the work and rejects with its reason. */
  signal?: AbortSignal | undefined;
}
