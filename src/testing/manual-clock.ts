// A Clock that moves only when told to, so tests drive every time window without sleeping.

import type { Clock } from '../types/index.js';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

/**
 * A `Clock` that moves only when told to (`advance`, `set`, `drive`), so tests drive every time window
 * (repeat windows, caches, rate limits, router timeouts and backoff) without sleeping. Pass it as
 * `createEngine({ clock })`.
 * @example
 * ```ts
 * const clock = new ManualClock('2026-03-01T12:00:00Z');
 * const engine = createEngine({ clock, sources: [scriptedSource('s', { cats: { results: [] } })] });
 * await clock.advance(5 * 60_000); // past the free-repeat window
 * ```
 */
export class ManualClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  #seq = 0;
  /** Real work in flight (Clock.track): drive() holds the clock while there is any. */
  #working = 0;
  /** Tracked work started or finished so far: drive() sees real work progress by it. */
  #workEvents = 0;

  /** @param start The initial time (epoch ms, ISO string or Date); default 2026-01-01T00:00:00Z. */
  constructor(start: number | string | Date = Date.UTC(2026, 0, 1)) {
    this.#now = typeof start === 'number' ? start : new Date(start).getTime();
  }

  /** The current time in epoch milliseconds. */
  now(): number {
    return this.#now;
  }

  /** Resolves when the clock is moved `ms` forward; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const timer: Timer = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#timers.push(timer);
    });
  }

  /**
   * Told by the engine of real work a call waits on (a page's fetch, its conversion on a worker thread):
   * `drive` does not move the clock while such work is in flight. `advance`, `set` and `runAll` move it
   * regardless, so a test can still reach a deadline while a page is loading.
   */
  track(work: Promise<unknown>): void {
    this.#working++;
    this.#workEvents++;
    const done = () => {
      this.#working--;
      this.#workEvents++;
    };
    work.then(done, done);
  }

  /** Number of tracked real-work promises still in flight (see `track`). */
  get working(): number {
    return this.#working;
  }

  /** Number of sleeps waiting on this clock. */
  get pending(): number {
    return this.#timers.length;
  }

  /**
   * Moves time forward by `ms`, firing due timers in order and letting the code they wake run
   * (including sleeps it starts that fall due within the same advance).
   */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    await flush();
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#timers[0];
      if (!next || next.at > target) break;
      this.#timers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.resolve();
      await flush();
    }
    this.#now = target;
    await flush();
  }

  /** Jumps to an absolute time (forward only), firing what falls due. */
  async set(time: number | string | Date): Promise<void> {
    const t = typeof time === 'number' ? time : new Date(time).getTime();
    await this.advance(Math.max(0, t - this.#now));
  }

  /**
   * Moves time through every sleep `promise` waits on (retries, backoff, timeouts) until it settles,
   * then returns its outcome: `await clock.drive(engine.extract({ urls }, ctx))`.
   *
   * Real work runs in real time: while the engine reports work in flight (`track`: page fetches,
   * conversions on worker threads) the clock holds still, so a deadline is not reached before a real page
   * could answer; it moves on to the next sleep once that work is done, or once it has been in flight
   * for `idleMs` of real time with a sleep due (as a real clock would have). To hit a deadline on
   * purpose while a page is still loading, use `advance`.
   * Throws when the promise is still pending with no sleep within `limitMs` of clock time and no real
   * work in flight for `idleMs` of real time.
   */
  async drive<T>(promise: Promise<T>, limitMs = 3_600_000, idleMs = 5_000): Promise<T> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    const end = this.#now + limitMs;
    const due = () => {
      this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#timers[0];
      return next && next.at <= end ? next : undefined;
    };
    // Since when nothing has moved: no sleep fired, no real work started or finished.
    let stillSince = Date.now();
    let events = this.#workEvents;
    for (let turn = 0; ; turn++) {
      await flush();
      if (settled) break;
      if (this.#workEvents !== events) {
        events = this.#workEvents;
        stillSince = Date.now();
        turn = 0;
      }
      const waited = Date.now() - stillSince;
      const next = due();
      if (next && (this.#working === 0 || waited > idleMs)) {
        await this.advance(next.at - this.#now);
        stillSince = Date.now();
        turn = 0;
        continue;
      }
      if (this.#working === 0 && waited > idleMs) {
        throw new Error(
          this.#timers.length > 0
            ? `ManualClock.drive: still pending after ${limitMs} ms of clock time`
            : 'ManualClock.drive: still pending with no sleep to wake it',
        );
      }
      // A few immediate turns first (cheap), then real 1 ms waits so I/O and workers progress without spinning.
      if (turn >= 50) await new Promise<void>((r) => setTimeout(r, 1));
    }
    return promise;
  }

  /** Runs pending timers until none are left or `limitMs` of clock time has passed. */
  async runAll(limitMs = 3_600_000): Promise<void> {
    const end = this.#now + limitMs;
    await flush();
    while (this.#timers.length > 0 && this.#now < end) {
      this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#timers[0]!;
      await this.advance(Math.min(end, next.at) - this.#now);
    }
  }
}

/** Lets queued promise callbacks (several hops deep) run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise<void>((r) => setImmediate(r));
}
