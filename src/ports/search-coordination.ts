// The SearchCoordination port: a shared store that answers, in one round trip, what a search asks of it
// one question at a time through the other ports (the rate limit, the flight lock, the repeat window,
// the confirmed-empty entry). Optional: without it (or when it declines) the engine asks RateLimiter,
// Flights and the caches separately, with the same rules. A charged search writes its window before its
// settlement (docs/engine.md, "A charged search always leaves its window"): a window found while its flight's lock is held may belong
// to a search still settling, so it is waited for like a miss, never served lock-free.

export interface SearchEntryRequest {
  organization: string;
  /** Clock time of the rate-limit take. */
  now: number;
  /** The Flights key of the search (identical requests of one organization share it). */
  flightKey: string;
  /** The repeat-window store's key, and whether an entry found is still inside its window (the Clock's rule). */
  windowKey: string;
  fresh(window: unknown): boolean;
  /** The confirmed-empty store's key. */
  emptyKey: string;
}

/** What the search found on entering, handed to its task. */
export type SearchEntry =
  /** A repeat window inside its time, its search finished (no lock was taken: a free repeat needs none). */
  | { kind: 'window'; window: unknown }
  /**
   * The flight's lock, taken (no window was there): `empty` is the confirmed-empty entry (undefined: none).
   * `open` writes the window now, before the charge (ttlMs: the store's hint), and rejects when the store
   * could not take it; `withdraw` deletes it as the lock is released (its charge did not happen).
   */
  | { kind: 'held'; empty: unknown; open(window: unknown, ttlMs: number): Promise<void>; withdraw(): void }
  /** Nothing known: ask the ports one by one (the flight is already coordinated, or can't be). */
  | { kind: 'plain' };

export interface SearchCoordination {
  /**
   * Admits the search under the rate limit (throws RateLimitError / RateLimiterUnavailableError like
   * `admit`) and runs `task` as its flight. Returns undefined, having done nothing, when this process
   * already runs a flight of `flightKey`: the caller then admits it and queues it through Flights.
   */
  start<T>(request: SearchEntryRequest, task: (entry: SearchEntry) => Promise<T>, signal?: AbortSignal): Promise<T> | undefined;
  close?(): Promise<void>;
}
