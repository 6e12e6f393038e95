// Second-stage features: what the first-stage classifier thinks of a block's neighbours and of the
// containers around it. A block is rarely content alone: a short line between two paragraphs of an
// article is, the same line in a menu is not. Shared by inference and training, so both see the
// same numbers.

import { type BlockRows, GROUP_LEVELS } from './block-features.js';

export const CONTEXT_FEATURES = [
  'score',
  'prev1',
  'prev2',
  'next1',
  'next2',
  ...GROUP_LEVELS.flatMap((k) => [`group${k}_score`, `group${k}_token_share`, `group${k}_rows`]),
  'page_score',
  'page_kept_share',
  // Where the row stands against the story: the share of the page's likely content before and after
  // it, and how many rows lie between it and the nearest likely paragraph on each side (a caption or
  // teaser inside the story sits close to prose; a related list after the story's end does not).
  'kept_before_share',
  'kept_after_share',
  'prose_gap_before',
  'prose_gap_after',
] as const;

/** A row the first stage keeps with at least this many tokens counts as a paragraph of the story. */
const PROSE_TOKENS = 15;

const MISSING = -8;

/**
 * `scores`: first-stage log-odds per row; `tokens`: each row's token count. Returns
 * CONTEXT_FEATURES.length values per row, row-major.
 */
export function contextFeatures(rows: Pick<BlockRows, 'groups'>, scores: ArrayLike<number>, tokens: ArrayLike<number>): Float32Array {
  const n = scores.length;
  const cols = CONTEXT_FEATURES.length;
  const levels = GROUP_LEVELS.length;
  const out = new Float32Array(n * cols);
  let pageTokens = 0;
  let pageWeighted = 0;
  let keptTokens = 0;
  for (let r = 0; r < n; r++) {
    const t = tokens[r]!;
    pageTokens += t;
    pageWeighted += t * clamp(scores[r]!);
    if (scores[r]! >= 0) keptTokens += t;
  }
  // Token-weighted mean score, token total and row count per container, per level, in arrays by
  // container index (a Map entry and a tuple per container cost more than these sums).
  const index = new Int32Array(n * levels);
  const containers = containerIndices(rows.groups, n, levels, index);
  const weighted = new Float64Array(containers * levels);
  const tokenSum = new Float64Array(containers * levels);
  const rowCount = new Int32Array(containers * levels);
  for (let j = 0; j < levels; j++) {
    for (let r = 0; r < n; r++) {
      const g = j * containers + index[r * levels + j]!;
      weighted[g] = weighted[g]! + tokens[r]! * clamp(scores[r]!);
      tokenSum[g] = tokenSum[g]! + tokens[r]!;
      rowCount[g] = rowCount[g]! + 1;
    }
  }
  // Rows since the last likely paragraph, and until the next one.
  const gapBefore = new Float32Array(n);
  const gapAfter = new Float32Array(n);
  const prose = (r: number) => scores[r]! >= 0 && tokens[r]! >= PROSE_TOKENS;
  for (let r = 0, last = -1; r < n; r++) {
    gapBefore[r] = last < 0 ? MISSING : Math.log1p(r - last);
    if (prose(r)) last = r;
  }
  for (let r = n - 1, next = -1; r >= 0; r--) {
    gapAfter[r] = next < 0 ? MISSING : Math.log1p(next - r);
    if (prose(r)) next = r;
  }
  let keptBefore = 0;
  for (let r = 0; r < n; r++) {
    const o = r * cols;
    out[o] = scores[r]!;
    out[o + 1] = r >= 1 ? scores[r - 1]! : MISSING;
    out[o + 2] = r >= 2 ? scores[r - 2]! : MISSING;
    out[o + 3] = r + 1 < n ? scores[r + 1]! : MISSING;
    out[o + 4] = r + 2 < n ? scores[r + 2]! : MISSING;
    for (let j = 0; j < levels; j++) {
      const g = j * containers + index[r * levels + j]!;
      const t = tokenSum[g]!;
      out[o + 5 + j * 3] = t > 0 ? weighted[g]! / t : MISSING;
      out[o + 6 + j * 3] = t / Math.max(1, pageTokens);
      out[o + 7 + j * 3] = Math.log1p(rowCount[g]!);
    }
    out[o + 5 + levels * 3] = pageTokens > 0 ? pageWeighted / pageTokens : MISSING;
    out[o + 6 + levels * 3] = keptTokens / Math.max(1, pageTokens);
    const mine = scores[r]! >= 0 ? tokens[r]! : 0;
    out[o + 7 + levels * 3] = keptBefore / Math.max(1, keptTokens);
    out[o + 8 + levels * 3] = (keptTokens - keptBefore - mine) / Math.max(1, keptTokens);
    out[o + 9 + levels * 3] = gapBefore[r]!;
    out[o + 10 + levels * 3] = gapAfter[r]!;
    keptBefore += mine;
  }
  return out;
}

/**
 * Fills `index` (like `groups`) with each row's container as a number from 0, the same for the rows of
 * one container at one level, and returns how many numbers that takes. blockFeatures numbers
 * containers from 0 (-1: none), so its numbers shift by one; other numbers are renumbered.
 */
function containerIndices(groups: Int32Array, n: number, levels: number, index: Int32Array): number {
  let max = -1;
  let min = -1;
  for (let i = 0; i < n * levels; i++) {
    const g = groups[i]!;
    if (g > max) max = g;
    if (g < min) min = g;
  }
  if (min >= -1 && max < 4 * n * levels + 64) {
    for (let i = 0; i < n * levels; i++) index[i] = groups[i]! + 1;
    return max + 2;
  }
  const seen = new Map<number, number>();
  for (let i = 0; i < n * levels; i++) {
    let k = seen.get(groups[i]!);
    if (k === undefined) seen.set(groups[i]!, (k = seen.size));
    index[i] = k;
  }
  return seen.size;
}

/** Scores are log-odds; extreme values would let one block dominate a container's mean. */
const clamp = (s: number) => Math.max(-6, Math.min(6, s));
