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

/** An entry, linked into its partition's recency list (least recently used at the head). */
interface Node<V> {
  key: string;
  value: V;
  expiresAt: number;
  prev: Node<V> | undefined;
  next: Node<V> | undefined;
}

// Recency is a doubly linked list beside the Map, not the Map's insertion order: moving an entry to the
// end by delete + set, and finding the least recently used by iterating, left deleted slots at the front
// of V8's ordered hash table that every later iteration stepped over, so a write to a full partition cost
// ~5 µs (10× lru-cache's). Here a read or write is a Map lookup and a few pointer moves, whatever the size.
class Partition<V> {
  readonly nodes = new Map<string, Node<V>>();
  head: Node<V> | undefined;
  tail: Node<V> | undefined;
  /** The latest deadline of any entry it was given: past it, the whole partition is dead. */
  expiresAt: number;

  constructor(now: number) {
    this.expiresAt = now;
  }

  unlink(node: Node<V>): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = undefined;
  }

  /** Appends at the most recently used end. */
  append(node: Node<V>): void {
    node.prev = this.tail;
    node.next = undefined;
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
  }

  remove(node: Node<V>): void {
    this.unlink(node);
    this.nodes.delete(node.key);
  }
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
      for (const partition of partitions.values()) n += partition.nodes.size;
      return n;
    },
    async get(key) {
      const now = clock.now();
      sweep(now);
      const partition = partitions.get(partitionOf(key));
      const node = partition?.nodes.get(key);
      if (!partition || !node) return undefined;
      if (node.expiresAt <= now) {
        partition.remove(node);
        return undefined;
      }
      if (node !== partition.tail) {
        partition.unlink(node);
        partition.append(node); // most recently used
      }
      return node.value;
    },
    async set(key, value, ttlMs) {
      const now = clock.now();
      sweep(now);
      const id = partitionOf(key);
      let partition = partitions.get(id);
      if (!partition) partitions.set(id, (partition = new Partition<V>(now)));
      const expiresAt = now + Math.max(0, ttlMs || 0);
      const { nodes } = partition;
      const node = nodes.get(key);
      if (node) {
        node.value = value;
        node.expiresAt = expiresAt;
        partition.unlink(node);
        partition.append(node);
      } else {
        const added: Node<V> = { key, value, expiresAt, prev: undefined, next: undefined };
        nodes.set(key, added);
        partition.append(added);
      }
      partition.expiresAt = Math.max(partition.expiresAt, expiresAt);
      // From the least recently used end: drop what has expired, then what is over the bound.
      for (let h = partition.head; h && (nodes.size > max || h.expiresAt <= now); h = partition.head) partition.remove(h);
    },
    async delete(key) {
      const id = partitionOf(key);
      const partition = partitions.get(id);
      const node = partition?.nodes.get(key);
      if (!partition || !node) return;
      partition.remove(node);
      if (partition.nodes.size === 0) partitions.delete(id);
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
