// The WCXB metric, exactly as its README defines it: lower-cased `\w+` tokens, bag-of-words
// (multiset) precision/recall/F1 per page; snippet checks are case-insensitive substring tests.

export interface PageScore {
  precision: number;
  recall: number;
  f1: number;
}

export function tokens(text: string): string[] {
  return text.toLowerCase().match(/\w+/g) ?? [];
}

function counts(words: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

export function scorePage(predicted: string, reference: string): PageScore {
  return scoreTokens(tokens(predicted), tokens(reference));
}

/** The same on tokens already taken (the block trainer scores kept blocks' tokens). */
export function scoreTokens(p: readonly string[], r: readonly string[]): PageScore {
  if (p.length === 0 || r.length === 0) {
    const both = p.length === 0 && r.length === 0;
    return { precision: both ? 1 : 0, recall: both ? 1 : 0, f1: both ? 1 : 0 };
  }
  const pc = counts(p);
  let overlap = 0;
  for (const [w, n] of counts(r)) overlap += Math.min(n, pc.get(w) ?? 0);
  const precision = overlap / p.length;
  const recall = overlap / r.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** How many of `snippets` occur in `text` (case-insensitive, whitespace-normalised substring). */
export function snippetsFound(text: string, snippets: readonly string[]): number {
  const hay = norm(text);
  return snippets.filter((s) => norm(s) !== '' && hay.includes(norm(s))).length;
}
