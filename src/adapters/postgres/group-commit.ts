// Group commit per key (an organization): at most one statement per key in flight from this instance;
// calls that arrive meanwhile wait and go together in the next one. PostgreSQL holds the organization's
// row lock until a commit is fsynced, so statements of one organization run one at a time anyway; sent
// together, the calls queued behind one fsync share the next instead of taking one each (issue 33).
// An idle key sends at once: a lone call waits for nothing.

/** One statement for `items` of `key`: a result or an Error per item, in order; a rejection fails them all. */
export type Flush<I, R> = (key: string, items: I[]) => Promise<(R | Error)[]>;

interface Waiting<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

interface Lane<I, R> {
  waiting: Waiting<I, R>[];
  flying: boolean;
}

export class GroupCommit<I, R> {
  readonly #lanes = new Map<string, Lane<I, R>>();
  readonly #flush: Flush<I, R>;
  readonly #max: number;

  /** `max`: items per statement at most (bounds the statement's size and its lock's hold). */
  constructor(flush: Flush<I, R>, max = 256) {
    this.#flush = flush;
    this.#max = max;
  }

  submit(key: string, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let lane = this.#lanes.get(key);
      if (!lane) {
        lane = { waiting: [], flying: false };
        this.#lanes.set(key, lane);
      }
      lane.waiting.push({ item, resolve, reject });
      if (!lane.flying) this.#send(key, lane);
    });
  }

  #send(key: string, lane: Lane<I, R>): void {
    const batch = lane.waiting.splice(0, this.#max);
    lane.flying = true;
    // The next statement leaves after the callers just answered have run on (setImmediate: after every
    // microtask), so a caller whose reserve came back can put its settlement, or its next reserve, in it.
    const settled = () =>
      setImmediate(() => {
        lane.flying = false;
        if (lane.waiting.length > 0) this.#send(key, lane);
        else this.#lanes.delete(key);
      });
    let flight: Promise<(R | Error)[]>;
    try {
      flight = this.#flush(
        key,
        batch.map((w) => w.item),
      );
    } catch (error) {
      flight = Promise.reject(error);
    }
    flight.then(
      (results) => {
        batch.forEach((w, i) => {
          const result = results[i];
          if (result instanceof Error) w.reject(result);
          else if (i >= results.length) w.reject(new Error('websift/postgres: a batched statement answered too few rows'));
          else w.resolve(result as R);
        });
        settled();
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
        settled();
      },
    );
  }
}
