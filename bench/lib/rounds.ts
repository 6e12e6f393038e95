// How every bench reports a figure: the median and the range (min–max) over its rounds, never the
// best round or a single run (on 2 shared cores one round says more about the machine than the code).

/** The median; with an even count, the mean of the two middle values. Throws on no values (a bench without rounds). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError('median of no rounds');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `median (min–max)`, each through `format` (a number: that many decimals). */
export function spread(xs: readonly number[], format: number | ((x: number) => string) = 1): string {
  const f = typeof format === 'number' ? (x: number) => x.toFixed(format) : format;
  return `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
}

/** The order of `names` in round `round`: rotated by one each round, so that none always runs first. */
export function rotated<T>(names: readonly T[], round: number): T[] {
  return names.map((_, i) => names[(i + round) % names.length]!);
}
