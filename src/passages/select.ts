// Query passages: the page's passages ranked by BM25F against the query, the best kept within the
// budget and shown in reading order, each under the headings (and table header) it sits under, with a
// `[…]` line wherever content was left out. Headings and the blank lines between units count against
// the budget; the `[…]` lines do not (like the cut marker, they are not content).

import { bm25f } from './bm25.js';
import { cutEnd } from './cut.js';
import { SKIP_MARKER } from './markers.js';
import { type Passage, type Split, splitMarkdown } from './split.js';
import { queryTerms, tokens } from './tokens.js';

const SEP = '\n\n';

/** A stretch of output: its text and the span of content it stands for (for the skip markers). */
interface Unit {
  start: number;
  end: number;
  text: string;
}

export interface Passages {
  text: string;
  truncated: boolean;
}

/** The passages of content[start…] most relevant to `query`, within `maxChars` characters of content. */
export function queryPassages(content: string, start: number, query: string, maxChars: number): Passages {
  const budget = Math.max(0, Math.floor(maxChars));
  if (content.length - start <= budget) return { text: content.slice(start), truncated: false };
  const split = splitMarkdown(content, start);
  const { passages, contexts } = split;
  const shown = passages.map((p) => display(content, p));
  const headWords = contexts.map((c) => tokens(content.slice(c.start, c.end)));
  const scores = bm25f(
    passages.map((p, i) => ({ text: tokens(shown[i]!), head: p.context.flatMap((c) => headWords[c]!) })),
    queryTerms(query),
  );
  const ranked = passages
    .map((_, i) => i)
    .filter((i) => scores[i]! > 0)
    .sort((a, b) => scores[b]! - scores[a]! || a - b);

  // The best passages that fit, each with the headings of its path not shown yet; when they do not all
  // fit, its outer headings give way first (its innermost stays). A heading shown is shown once: paths
  // are nested intervals of the page, so a heading is in effect for one run of passages.
  const chosen: number[] = [];
  const visible = new Set<number>();
  const lengthOf = (c: number) => contexts[c]!.end - contexts[c]!.start + SEP.length;
  let used = -SEP.length; // n units have n - 1 separators
  for (const i of ranked) {
    const heads = passages[i]!.context.filter((c) => !visible.has(c));
    let cost = shown[i]!.length + SEP.length + heads.reduce((s, c) => s + lengthOf(c), 0);
    while (used + cost > budget && heads.length > 1) cost -= lengthOf(heads.shift()!);
    if (used + cost > budget) continue;
    used += cost;
    chosen.push(i);
    for (const c of heads) visible.add(c);
  }
  const units =
    chosen.length > 0 ? unitsOf(content, split, shown, chosen, visible) : [fallback(content, start, budget, split, shown, ranked[0])];
  return render(content, start, units);
}

/** What a passage shows: its slice of content, inside its code fences when it is a piece of a code block. */
function display(content: string, p: Passage): string {
  return `${p.prefix ?? ''}${content.slice(p.start, p.end)}${p.suffix ?? ''}`;
}

/** The chosen passages in reading order, each preceded by the visible headings of its path not in effect yet. */
function unitsOf(content: string, { passages, contexts }: Split, shown: string[], chosen: number[], visible: Set<number>): Unit[] {
  const units: Unit[] = [];
  let path: readonly number[] = [];
  for (const i of [...chosen].sort((a, b) => a - b)) {
    const p = passages[i]!;
    for (const c of p.context) {
      if (path.includes(c) || !visible.has(c)) continue;
      const { start, end } = contexts[c]!;
      units.push({ start, end, text: content.slice(start, end) });
    }
    path = p.context;
    units.push({ start: p.start, end: p.end, text: shown[i]! });
  }
  return units;
}

/** When no passage fits whole: the best one cut to the budget, or (no word of the query found) the page from the top. */
function fallback(content: string, start: number, budget: number, split: Split, shown: string[], best: number | undefined): Unit {
  if (best === undefined) {
    const end = cutEnd(content, start, budget);
    return { start, end, text: content.slice(start, end).trimEnd() };
  }
  const p = split.passages[best]!;
  const text = shown[best]!;
  const end = cutEnd(text, 0, budget);
  return {
    start: p.start,
    end: end >= text.length ? p.end : Math.max(p.start, p.start + end - (p.prefix?.length ?? 0)),
    text: text.slice(0, end).trimEnd(),
  };
}

/** The units joined by blank lines, with a `[…]` line wherever content between them was left out. */
function render(content: string, start: number, units: Unit[]): Passages {
  const parts: string[] = [];
  let at = start;
  let truncated = false;
  for (const u of units) {
    if (u.start >= at && /\S/.test(content.slice(at, u.start))) {
      parts.push(SKIP_MARKER);
      truncated = true;
    }
    if (u.text !== '') parts.push(u.text);
    at = Math.max(at, u.end);
  }
  if (/\S/.test(content.slice(at))) {
    parts.push(SKIP_MARKER);
    truncated = true;
  }
  return { text: parts.join(SEP), truncated };
}
