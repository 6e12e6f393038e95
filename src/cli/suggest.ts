// "Did you mean …?" for misspelt config keys: the known key nearest by edit distance, when near enough.

import { CliError } from './cli-error.js';

/** Levenshtein distance, case-insensitive (rateLimit vs ratelimit is a typo, not a new word). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[t.length]!;
}

/** The closest candidate within a third of the word's length (at least 2 edits), else undefined. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Throws a usage error naming every key of `value` not in `known`, with a suggestion for each. */
export function rejectUnknownKeys(
  where: string,
  value: Record<string, unknown>,
  known: readonly string[],
  hints: Record<string, string> = {},
): void {
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length === 0) return;
  const described = unknown.map((k) => {
    if (Object.hasOwn(hints, k)) return `'${k}' (${hints[k]})`;
    const near = closest(k, known);
    return near ? `'${k}' (did you mean '${near}'?)` : `'${k}'`;
  });
  throw new CliError(`${where}: unknown key${unknown.length > 1 ? 's' : ''} ${described.join(', ')}; known: ${known.join(', ')}`);
}
