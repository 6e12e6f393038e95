// An in-process CacheStore bounded per partition (for repeat windows: one organization's search windows,
// or its extract windows) instead of globally, so that no partition's traffic can evict another's live
// entries: one LRU shared by everyone let an organization's 10,000 searches push every other
// organization's free-repeat windows out. Each partition is an LRU of at most `maxPerPartition` entries;
// a partition is dropped once every entry it was given has expired.
//
// Expiry is decided against the injected Clock: an entry's deadline is `now + ttlMs` at `set` (the port's
// hint), never a real-time timer. Memory follows live entries: expired entries are pruned from a
// partition's least recently used end on every write, and expired partitions once per sweep interval.

import { type RepeatEntry, repeatWindowPartition } from '../core/books/index.js';
import type { CacheStore } from '../ports/cache.js';
import type { Clock } from '../types/index.js';

export interface PartitionedLruOptions {
  clock: Clock;
  /** The partition a key belongs to; each is bounded on its own. */
  partitionOf: (key: string) => string;
  /** Entries kept per partition, least recently used evicted first (default 10,000). */
  maxPerPartition?: number;
}

export interface PartitionedLruStore<V> extends CacheStore<V> {
  /** Partitions held (live, or expired but not swept yet). */
  readonly partitions: number;
  /** Entries held across all partitions. */
  readonly size: number;
  close(): Promise<void>;
}

export const DEFAULT_MAX_PER_PARTITION = 10_000;
/** Expired partitions are looked for at most this often (clock time): a pass costs one step per partition. */
export const SWEEP_INTERVAL_MS = 60_000;

interface Entry<V> {
  value: V;
  expiresAt: number;
}

interface Partition<V> {
  /** In least-recently-used-first order (a read or write moves the entry to the end). */
  entries: Map<string, Entry<V>>;
  /** The latest deadline of any entry it was given: past it, the whole partition is dead. */
  expiresAt: number;
}

export function partitionedLruStore<V>(options: PartitionedLruOptions): PartitionedLruStore<V> {
  const { clock, partitionOf } = options;
  const max = options.maxPerPartition ?? DEFAULT_MAX_PER_PARTITION;
  if (!Number.isInteger(max) || max < 1)
    throw new RangeError(`partitionedLruStore: maxPerPartition must be a positive integer (got ${String(max)})`);
  const partitions = new Map<string, Partition<V>>();
  let nextSweepAt = -Infinity;

  const sweep = (now: number) => {
    if (now < nextSweepAt) return;
    nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [id, partition] of partitions) if (partition.expiresAt <= now) partitions.delete(id);
  };

  return {
    get partitions() {
      return partitions.size;
    },
    get size() {
      let n = 0;
      for (const partition of partitions.values()) n += partition.entries.size;
      return n;
    },
    async get(key) {
      const now = clock.now();
      sweep(now);
      const entries = partitions.get(partitionOf(key))?.entries;
      const entry = entries?.get(key);
      if (!entries || !entry) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= now) return undefined;
      entries.set(key, entry); // most recently used
      return entry.value;
    },
    async set(key, value, ttlMs) {
      const now = clock.now();
      sweep(now);
      const id = partitionOf(key);
      let partition = partitions.get(id);
      if (!partition) partitions.set(id, (partition = { entries: new Map(), expiresAt: now }));
      const expiresAt = now + Math.max(0, ttlMs || 0);
      const { entries } = partition;
      entries.delete(key);
      entries.set(key, { value, expiresAt });
      partition.expiresAt = Math.max(partition.expiresAt, expiresAt);
      // From the least recently used end: drop what has expired, then what is over the bound.
      for (const [k, e] of entries) {
        if (entries.size <= max && e.expiresAt > now) break;
        entries.delete(k);
      }
    },
    async delete(key) {
      const id = partitionOf(key);
      const partition = partitions.get(id);
      if (!partition) return;
      partition.entries.delete(key);
      if (partition.entries.size === 0) partitions.delete(id);
    },
    async close() {
      partitions.clear();
    },
  };
}

/** The default store of repeat windows: bounded per organization and kind (search, extract). */
export function repeatWindowStore<V = RepeatEntry>(clock: Clock, maxPerPartition = DEFAULT_MAX_PER_PARTITION): PartitionedLruStore<V> {
  return partitionedLruStore<V>({ clock, partitionOf: repeatWindowPartition, maxPerPartition });
}
