// One engine call as the core sees it: who it is for, when it started, and the caller's cancellation.

export interface Call {
  org: string;
  /** Clock time the call started (response_time, repeat windows). */
  start: number;
  /** The caller's `ctx.signal`: aborting it stops the work and rejects with its reason. */
  signal?: AbortSignal | undefined;
}

/** `promise`, or the signal's reason as soon as it aborts (the promise itself runs on). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
