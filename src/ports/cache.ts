// The cache port behind repeat windows and the confirmed-empty cache. Expiry is decided by the
// core against the injected Clock (entries carry their own deadline); `ttlMs` is only a hint so a
// shared store (Redis) can evict dead entries itself.

/** How a write may fail (optional: a store that never loses a write ignores it). */
export interface CacheWriteOptions {
  /**
   * The caller depends on this write: a repeat window, written before its charge. A store that can tell
   * a write lost while it is up (a timeout on a live connection) from an outage (known down) rejects the
   * former, so the caller refuses its charge (503, nothing charged), and may drop the latter as any
   * write (during an outage the entry could not be read back anyway). Without it a failed write may be dropped.
   */
  required?: boolean;
}

/** How a read may fail (optional: a store that never loses a read ignores it). */
export interface CacheReadOptions {
  /**
   * The caller depends on this read: a repeat window, read before a charge. A store that can tell a read
   * failed while it is up (a timeout on a live connection, a first connection not made yet) from an
   * outage (known down) rejects the former, so the caller refuses the call (503, nothing charged) rather
   * than charging a repeat that may be free, and may answer a miss for the latter, as any read.
   */
  required?: boolean;
}

export interface CacheStore<V> {
  get(key: string, options?: CacheReadOptions): Promise<V | undefined>;
  set(key: string, value: V, ttlMs: number, options?: CacheWriteOptions): Promise<void>;
  delete(key: string): Promise<void>;
  close?(): Promise<void>;
}
