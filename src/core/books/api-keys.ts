// API keys: `ws_live_` + 192 random bits (base64url). Only the SHA-256 digest is stored; a lookup is
// by digest, then the digests are compared in constant time. Keys carry ≥128 random bits, so a
// fast hash is enough (no password stretching needed).

import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyEvents } from '../../ports/key-events.js';
import type { KeyStore } from '../../ports/key-store.js';
import type { Clock } from '../../types/index.js';

export const KEY_PREFIX = 'ws_live_';
/** Anything longer can't be one of our keys; refuse before hashing. */
const MAX_KEY_LENGTH = 256;

export function newApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function keyDigest(key: string): string {
  return hash('sha256', key, 'hex'); // one-shot: about half the cost of createHash().update().digest()
}

/** The organization of a live key, or null (unknown, revoked, malformed). */
export async function lookupKey(store: KeyStore, key: unknown, cache?: KeyCache): Promise<{ organization: string } | null> {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return null;
  const digest = keyDigest(key);
  const cached = cache?.get(digest);
  if (cached !== undefined) return { organization: cached };
  const epoch = cache?.epoch;
  const row = await store.find(digest);
  if (!row || row.revoked) return null;
  const a = Buffer.from(row.hash, 'hex');
  const b = Buffer.from(digest, 'hex');
  if (!(a.length === b.length && timingSafeEqual(a, b))) return null;
  if (epoch !== undefined) cache?.set(digest, row.organization, epoch);
  return { organization: row.organization };
}

/**
 * Live keys recently authenticated: digest → organization, at most `max` of them, each trusted for
 * `ttlMs` by the Clock. It saves the key store's lookup on every request (HTTP authenticates each
 * one). Only live keys are cached (an unknown key always reaches the store, so guessing can't fill
 * the cache with junk), and only digests are held, never a plaintext key. A revocation through this
 * engine removes the entry at once; one made by another process sharing the database is seen here
 * within `ttlMs` (the entry expires and the next lookup reads the store), or at once with `events`
 * (KeyEvents: every instance hears of every revocation). While `events` is not live the cache is
 * neither read nor filled, and it is emptied when the feed comes back (revocations may have been missed).
 */
export class KeyCache {
  readonly #entries = new Map<string, { organization: string; until: number }>(); // oldest first
  readonly #clock: Pick<Clock, 'now'>;
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #events: KeyEvents | undefined;
  readonly #unsubscribe: (() => void) | undefined;
  #epoch = 0;

  constructor(clock: Pick<Clock, 'now'>, options: KeyCacheOptions = {}) {
    this.#clock = clock;
    this.#max = options.max ?? 1_000;
    this.#ttlMs = options.ttlMs ?? 5_000;
    this.#events = options.events;
    this.#unsubscribe = options.events?.subscribe(
      (digest) => this.delete(digest),
      () => this.clear(),
    );
  }

  /** False while revocations elsewhere could go unheard: then every lookup reads the key store. */
  get #trusted(): boolean {
    return this.#events?.live ?? true;
  }

  /** Changes on every delete: a lookup that started before a revocation must not cache its answer. */
  get epoch(): number {
    return this.#epoch;
  }

  get(digest: string): string | undefined {
    if (!this.#trusted) return undefined;
    const entry = this.#entries.get(digest);
    if (entry === undefined) return undefined;
    if (this.#clock.now() >= entry.until) {
      this.#entries.delete(digest);
      return undefined;
    }
    return entry.organization;
  }

  /** Caches a live key found by a lookup that started at `epoch` (ignored if a delete came since). */
  set(digest: string, organization: string, epoch: number): void {
    if (epoch !== this.#epoch || this.#max <= 0 || this.#ttlMs <= 0 || !this.#trusted) return;
    this.#entries.delete(digest);
    this.#entries.set(digest, { organization, until: this.#clock.now() + this.#ttlMs });
    // Entries are added with the same TTL, so the oldest inserted is the first to go.
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
  }

  delete(digest: string): void {
    this.#epoch++;
    this.#entries.delete(digest);
  }

  /** Forgets every key (lookups in flight won't cache their answers either). */
  clear(): void {
    this.#epoch++;
    this.#entries.clear();
  }

  /** Stops listening to `events`. */
  close(): void {
    this.#unsubscribe?.();
  }
}

export interface KeyCacheOptions {
  /** Most keys cached (default 1,000). */
  max?: number;
  /** How long a looked-up key is trusted without asking the store (default 5 s). */
  ttlMs?: number;
  /** Revocations from every instance (src/ports/key-events.ts). */
  events?: KeyEvents;
}
