// Free-repeat windows (spec: 5 minutes from the charged request, per organization). A window opens
// only when a request is charged and is never extended by the free repeats it serves. The search writes
// it before the charge and withdraws it when the charge does not happen (docs/engine.md, "A charged search always leaves its window").

import type { CacheReadOptions, CacheStore } from '../../ports/cache.js';
import type { Clock } from '../../types/index.js';
import { REPEAT_WINDOW_MS } from './billing.js';

export interface RepeatEntry<T = unknown> {
  /** Clock time of the charged request. */
  chargedAt: number;
  /** What a free repeat answers with (the charged answer). */
  value: T;
}

/**
 * Which organization's windows of which kind a store key holds: its `kind\u0000organization` prefix (the
 * whole key when it has no second NUL). Stores bound memory per partition, so that one organization's
 * traffic cannot evict another's windows (src/adapters/partitioned-lru-store.ts).
 */
export function repeatWindowPartition(storeKey: string): string {
  const first = storeKey.indexOf('\u0000');
  const second = first < 0 ? -1 : storeKey.indexOf('\u0000', first + 1);
  return second < 0 ? storeKey : storeKey.slice(0, second);
}

const REQUIRED = { required: true } as const;

export class RepeatWindows<T> {
  readonly #store: CacheStore<RepeatEntry>;
  readonly #clock: Clock;
  readonly #kind: string;

  /** `kind` separates search and extract windows sharing one store. */
  constructor(store: CacheStore<RepeatEntry>, clock: Clock, kind: 'search' | 'extract') {
    this.#store = store;
    this.#clock = clock;
    this.#kind = kind;
  }

  /** The store's key of a window. Keep in step with repeatWindowPartition. */
  storeKey(organization: string, key: string): string {
    return `${this.#kind}\u0000${organization}\u0000${key}`;
  }

  /**
   * The charged answer when `organization` is inside the window of `key`; the window is not extended.
   * `required`: a store that failed to read while up rejects instead of answering a miss (a search or an
   * extract then refuses the call rather than charge a repeat that may be free).
   */
  async find(organization: string, key: string, options?: CacheReadOptions): Promise<RepeatEntry<T> | undefined> {
    const entry = await this.#store.get(this.storeKey(organization, key), options);
    return entry && this.fresh(entry) ? (entry as RepeatEntry<T>) : undefined;
  }

  /** Free while strictly less than 5 minutes have passed since the charged request. */
  fresh(entry: RepeatEntry): boolean {
    return this.#clock.now() < entry.chargedAt + REPEAT_WINDOW_MS;
  }

  /**
   * Opens (or re-opens, after expiry) the window of a charged request made at `chargedAt`. Written before
   * the charge, as a required write: a store that lost it while up rejects, and the charge is refused.
   */
  async open(organization: string, key: string, chargedAt: number, value: T): Promise<void> {
    const { entry, ttlMs } = this.entryOf(chargedAt, value);
    await this.#store.set(this.storeKey(organization, key), entry, ttlMs, REQUIRED);
  }

  /** Deletes the window of `key` (written for a charge that did not happen). */
  async withdraw(organization: string, key: string): Promise<void> {
    await this.#store.delete(this.storeKey(organization, key));
  }

  /** A window's stored entry and the store's expiry hint (a coordinated search writes it itself). */
  entryOf(chargedAt: number, value: T): { entry: RepeatEntry<T>; ttlMs: number } {
    return { entry: { chargedAt, value }, ttlMs: Math.max(1, chargedAt + REPEAT_WINDOW_MS - this.#clock.now()) };
  }
}
