// A lane's cancellation (hedge lost, deadline, caller, attempt timeout), with its AbortSignal made only
// when someone reads it. Why: on Node 20 an AbortController is cheap but its `signal` getter builds an
// EventTarget and changes its prototype (~3 µs, the largest single item of a charged search in memory),
// and a source that answers from memory (a cache, an index, a script) never looks at its signal. The
// signal is still the lane's own, never shared: a source that keeps a listener on it after answering
// only ever sees this lane's abort (a later search has its own lane). A signal made after the lane was
// aborted is made aborted, with the same reason.

/** Where a source's `ctx` keeps its lane (a symbol: not among the context's names). */
const LANE = Symbol('websift.lane');

export class LaneAbort {
  /** True from the lane's abort on, as its signal's `aborted` would be. */
  aborted = false;
  /** The abort's reason, as its signal's `reason` would be. */
  reason: unknown = undefined;
  #controller: AbortController | undefined;

  /** The lane's AbortSignal, made on first read (already aborted if the lane was). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the lane once: its signal's listeners run now if it was made, otherwise whenever it is. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    if (reason === undefined) {
      // As `abort()` without a reason: the signal (made now, aborted) gets a new DOMException; the lane takes it.
      this.reason = this.signal.reason;
      return;
    }
    this.reason = reason;
    this.#controller?.abort(reason);
  }

  /**
   * The `ctx` a source gets: `limit`, and `signal` as an own enumerable getter, so that a source passing
   * `{ ...ctx }` on still hands over the lane's signal (a getter on a prototype would be lost by a spread).
   */
  sourceContext(limit: number): { signal: AbortSignal; limit: number } {
    const ctx = { limit, [LANE]: this } as unknown as { signal: AbortSignal; limit: number };
    Object.defineProperty(ctx, 'signal', SIGNAL_PROPERTY);
    return ctx;
  }
}

/** One shared descriptor (its getter finds the lane on the context object): no closure made per call. */
const SIGNAL_PROPERTY: PropertyDescriptor = {
  get(this: { [LANE]: LaneAbort }) {
    return this[LANE].signal;
  },
  enumerable: true,
  configurable: true,
};
