// AbortSignal helpers shared by the core, the fetcher and the renderer.
//
// A time limit is a signal that aborts when `parent` does or when its timer fires, whichever is first.
// Not AbortSignal.any([parent, AbortSignal.timeout(ms)]): on Node 20 the composite holds its sources
// weakly, so once the timeout signal is garbage-collected the composite never times out (a page
// with a time limit then hangs until something else stops it). Here the timer holds the controller.

export interface TimeLimit {
  signal: AbortSignal;
  /** Stops the timer and detaches from the parent (call when the work is done). */
  clear(): void;
}

/**
 * A limit on any timer: `arm(fire)` starts it (firing later, never during the call) and returns what
 * stops it; when it fires the signal
 * aborts with `expired()`. timeLimit (real time) and the core's clockDeadline (the injected Clock) are
 * built on it.
 */
export function limitedSignal(parent: AbortSignal | undefined, arm: (fire: () => void) => () => void, expired: () => unknown): TimeLimit {
  const controller = new AbortController();
  const onParentAbort = () => abort(parent?.reason);
  const stopTimer = arm(() => abort(expired()));
  function clear(): void {
    stopTimer();
    parent?.removeEventListener('abort', onParentAbort);
  }
  function abort(reason: unknown): void {
    if (!controller.signal.aborted) controller.abort(reason);
    clear();
  }
  if (parent?.aborted) abort(parent.reason);
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return { signal: controller.signal, clear };
}

/** Aborts after `ms` of real time (a TimeoutError with `message`), or with `parent`. */
export function timeLimit(ms: number, parent?: AbortSignal, message = `Timed out after ${ms} ms`): TimeLimit {
  return limitedSignal(
    parent,
    (fire) => {
      const timer = setTimeout(fire, ms);
      return () => clearTimeout(timer);
    },
    () => new DOMException(message, 'TimeoutError'),
  );
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
