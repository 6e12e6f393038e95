// What bench/convert-speed.ts and its child (convert-speed-child.ts) share: the systems, which pages a
// child converts, the order of the children in each round, and the message a child sends back.

// 'websift-other': another checkout's htmlToMarkdown (--other), each side in its own process, so both get
// linkedom's run-time changes (in one process only the first checkout loaded does: bench/convert-ab.ts).
export const SYSTEMS = ['websift', 'readability', 'parse-lazy', 'parse-stock', 'websift-other'] as const;
export type SystemName = (typeof SYSTEMS)[number];

/** The pairs the bench reports: the first's CPU over the second's, per round. */
export const PAIRS: readonly (readonly [SystemName, SystemName])[] = [
  ['websift', 'readability'],
  ['parse-lazy', 'parse-stock'],
];

/** The pair with --other: this checkout's CPU over the other's. */
export const OTHER_PAIR: readonly (readonly [SystemName, SystemName])[] = [['websift', 'websift-other']];

export interface ChildJob {
  system: SystemName;
  corpus: string;
  limit: number | undefined;
  /** Passes over the pages before the window (compiles and warms both systems alike). */
  warmup: number;
  /** Passes over the pages inside the window. */
  passes: number;
  /** The other checkout's root, for 'websift-other'. */
  other?: string;
}

export interface ChildResult {
  system: SystemName;
  pages: number;
  /** CPU of the whole process (all threads: GC helpers and compiler threads too) over the window, ms. */
  cpuMs: number;
  /** The closing full GC's share of cpuMs (the garbage the window made and had not collected yet). */
  closingGcMs: number;
  /** Main-thread GC pauses inside the window, ms (the closing GC included), and how many were full GCs. */
  gcPauseMs: number;
  majorGcs: number;
  /** The heap's largest total size seen after a page, MiB. */
  peakHeapMiB: number;
  /** A check the outputs were produced: summed output length over the window's first pass. */
  outChars: number;
}

/** Every k-th page so that `limit` remain (all of them without a limit or when fewer). */
export function everyKth<T>(list: readonly T[], limit: number | undefined): T[] {
  if (limit === undefined || list.length <= limit) return [...list];
  const step = list.length / limit;
  return Array.from({ length: limit }, (_, i) => list[Math.floor(i * step)]!);
}

/**
 * Warm-up pages: every k-th page half a step after the measured ones (other pages of the same corpus), so the
 * window's pages are not ones websift's cross-page memos (value-memo.ts) have just seen. Without a limit, or
 * when the corpus has no other pages, the measured pages themselves.
 */
export function warmupPages<T>(list: readonly T[], limit: number | undefined): T[] {
  if (limit === undefined || list.length < 2 * limit) return everyKth(list, limit);
  const step = list.length / limit;
  return Array.from({ length: limit }, (_, i) => list[Math.floor(i * step + step / 2)]!);
}

/**
 * The order the children of `systems` run in round `round`: each pair's two sides swap every round,
 * and the pairs themselves alternate, so neither side of a pair always runs first (or always right
 * after the other pair's heavier children).
 */
export function roundOrder(pairs: readonly (readonly [SystemName, SystemName])[], round: number): SystemName[] {
  const swapped = pairs.map(([a, b]) => (round % 2 === 0 ? [a, b] : [b, a]));
  if (Math.floor(round / 2) % 2 === 1) swapped.reverse();
  return swapped.flat();
}
