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
  // Token-weighted mean score, token total and row count per container, per level.
  const perLevel = GROUP_LEVELS.map((_, j) => {
    const sum = new Map<number, [number, number, number]>();
    for (let r = 0; r < n; r++) {
      const g = rows.groups[r * levels + j]!;
      const acc = sum.get(g) ?? [0, 0, 0];
      acc[0] += tokens[r]! * clamp(scores[r]!);
      acc[1] += tokens[r]!;
      acc[2] += 1;
      sum.set(g, acc);
    }
    return sum;
  });
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
      const [weighted, t, count] = perLevel[j]!.get(rows.groups[r * levels + j]!)!;
      out[o + 5 + j * 3] = t > 0 ? weighted / t : MISSING;
      out[o + 6 + j * 3] = t / Math.max(1, pageTokens);
      out[o + 7 + j * 3] = Math.log1p(count);
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

/** Scores are log-odds; extreme values would let one block dominate a container's mean. */
const clamp = (s: number) => Math.max(-6, Math.min(6, s));
