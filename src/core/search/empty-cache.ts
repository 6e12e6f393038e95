// The confirmed-empty cache: 15 minutes from confirmation, shared by every organization.
// Unconfirmed empties never enter it. Keyed by query text only: an empty answer has no pages,
// so content options don't change it.

import type { CacheStore } from '../../ports/cache.js';
import type { Clock } from '../../types/index.js';
import { CONFIRMED_EMPTY_TTL_MS } from '../books/index.js';

export interface ConfirmedEmpty {
  /** Clock time of the fresh search that confirmed it. */
  confirmedAt: number;
  /** How many sources' notices counted. */
  notices: number;
}

export class ConfirmedEmptyCache {
  readonly #store: CacheStore<ConfirmedEmpty>;
  readonly #clock: Clock;

  constructor(store: CacheStore<ConfirmedEmpty>, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  async find(queryText: string): Promise<ConfirmedEmpty | undefined> {
    return this.fresh(await this.#store.get(queryText));
  }

  /** `entry` (read from the store by someone else) while its 15 minutes last, else undefined. */
  fresh(entry: ConfirmedEmpty | undefined): ConfirmedEmpty | undefined {
    if (!entry) return undefined;
    return this.#clock.now() < entry.confirmedAt + CONFIRMED_EMPTY_TTL_MS ? entry : undefined;
  }

  async add(queryText: string, entry: ConfirmedEmpty): Promise<void> {
    const ttl = Math.max(1, entry.confirmedAt + CONFIRMED_EMPTY_TTL_MS - this.#clock.now());
    await this.#store.set(queryText, entry, ttl);
  }
}
