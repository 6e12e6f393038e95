// The cache port behind repeat windows and the confirmed-empty cache. Expiry is decided by the
// core against the injected Clock (entries carry their own deadline); `ttlMs` is only a hint so a
// shared store (Redis) can evict dead entries itself.

export interface CacheStore<V> {
  get(key: string): Promise<V | undefined>;
  set(key: string, value: V, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  close?(): Promise<void>;
}
