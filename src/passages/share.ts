// One budget shared between the pages of a call, fairly: every page gets an equal share, a page that
// needs less than its share keeps only what it needs, and what it leaves goes to the others
// (water-filling). Shares are whole characters; the few units an equal division leaves over go to the
// first of the pages still short, in page order.

/** Each page's allowance, in the order of `lengths`; the allowances never sum to more than `maxChars`. */
export function shareBudget(lengths: number[], maxChars: number): number[] {
  const need = lengths.map((l) => (Number.isFinite(l) ? Math.max(0, Math.floor(l)) : 0));
  const shares = [...need];
  let left = Number.isFinite(maxChars) ? Math.max(0, Math.floor(maxChars)) : 0;
  // Smallest need first: a page whose need fits an equal share of what is left takes it all.
  const order = need.map((_, i) => i).sort((a, b) => need[a]! - need[b]! || a - b);
  for (let k = 0; k < order.length; k++) {
    const hungry = order.length - k;
    const i = order[k]!;
    if (need[i]! * hungry <= left) {
      left -= need[i]!;
      continue;
    }
    // The level: the rest all need more than an equal share of what is left.
    const rest = order.slice(k).sort((a, b) => a - b);
    const level = Math.floor(left / hungry);
    let extra = left - level * hungry;
    for (const j of rest) shares[j] = level + (extra-- > 0 ? 1 : 0);
    break;
  }
  return shares;
}
