// The Markdown split on its own structure, in one pass over its lines: headings (each passage's
// breadcrumb), paragraphs, list items, table rows (under their table's header) and fenced code blocks
// are units kept whole; a unit longer than MAX_PASSAGE is split — prose into runs of whole sentences
// (Intl.Segmenter), a sentence without an end into runs of words, code into runs of whole lines, each
// run shown inside the block's fences. Offsets are into the content, so a passage is a slice of it.

import { cutEnd } from './cut.js';

/** The longest passage before a unit is split (characters). Near the smallest useful budget (500). */
export const MAX_PASSAGE = 400;

/** A line shown above a passage to place it: a heading, or a table's header and rule. */
export interface ContextLine {
  start: number;
  end: number;
  level: number;
}

export interface Passage {
  start: number;
  end: number;
  /** The headings (outermost first) and table header the passage sits under, as indices into `contexts`. */
  context: readonly number[];
  /** Shown around a piece of a fenced code block: the opening and closing fences. */
  prefix?: string;
  suffix?: string;
}

export interface Split {
  contexts: ContextLine[];
  passages: Passage[];
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const TABLE_ROW = /^[ \t]*\|/;
/** A table's rule, tested on the trimmed line (leading blanks before an optional pipe would backtrack). */
const TABLE_RULE = /^\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?$/;
const BLANK = /^[ \t]*$/;

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });
/** Intl.Segmenter is quadratic over one long string, so it reads a long block in windows this long. */
const SENTENCE_WINDOW = 2_048;

/** A unit being read: a paragraph or list item (`text`), a table row, or a fenced code block. */
interface Unit {
  start: number;
  end: number;
  kind: 'text' | 'row' | 'code';
  fence?: string;
}

/** The passages of `content` from `from` on, each with its heading path. Linear in the content. */
export function splitMarkdown(content: string, from = 0): Split {
  const contexts: ContextLine[] = [];
  const passages: Passage[] = [];
  let headings: number[] = []; // the heading path in effect (indices into contexts)
  let tableHead = -1; // the table header in effect, while rows follow it
  let unit = null as Unit | null;
  let fence: string | null = null;

  const close = () => {
    if (unit) addUnit(content, unit, tableHead >= 0 && unit.kind === 'row' ? [...headings, tableHead] : headings, passages);
    unit = null;
  };

  for (let ls = from; ls < content.length; ) {
    let le = content.indexOf('\n', ls);
    if (le < 0) le = content.length;
    const line = content.slice(ls, le);
    const next = le + 1;
    if (fence !== null) {
      unit!.end = le;
      const closing = FENCE.exec(line);
      if (closing && closing[1]![0] === fence[0] && closing[1]!.length >= fence.length && BLANK.test(line.slice(closing[0].length))) {
        fence = null;
        close();
      }
      ls = next;
      continue;
    }
    const opening = FENCE.exec(line);
    const heading = HEADING.exec(line);
    if (BLANK.test(line)) {
      close();
      tableHead = -1;
    } else if (opening) {
      close();
      tableHead = -1;
      fence = opening[1]!;
      unit = { start: ls, end: le, kind: 'code', fence };
    } else if (heading) {
      close();
      tableHead = -1;
      const level = heading[1]!.length;
      headings = headings.filter((h) => contexts[h]!.level < level);
      headings.push(contexts.length);
      contexts.push({ start: ls, end: le, level });
    } else if (TABLE_ROW.test(line)) {
      if (unit?.kind === 'row' && tableHead < 0 && TABLE_RULE.test(line.trim())) {
        // The header row and its rule: the context of the rows below, not a passage.
        tableHead = contexts.length;
        contexts.push({ start: unit.start, end: le, level: 7 });
        unit = null;
      } else {
        close();
        unit = { start: ls, end: le, kind: 'row' };
      }
    } else if (RULE.test(line)) {
      close();
    } else if (ITEM.test(line) || unit?.kind === 'row') {
      close();
      tableHead = -1;
      unit = { start: ls, end: le, kind: 'text' };
    } else if (unit) {
      unit.end = le; // a paragraph's or list item's next line
    } else {
      unit = { start: ls, end: le, kind: 'text' };
    }
    ls = next;
  }
  close();
  return { contexts, passages };
}

function addUnit(content: string, unit: Unit, context: readonly number[], out: Passage[]): void {
  let { start, end } = unit;
  while (start < end && /\s/.test(content[start]!)) start++;
  while (end > start && /\s/.test(content[end - 1]!)) end--;
  if (end <= start) return;
  if (end - start <= MAX_PASSAGE) out.push({ start, end, context });
  else if (unit.kind === 'code') splitCode(content, start, end, unit.fence!, context, out);
  else splitProse(content, start, end, context, out);
}

/** Runs of whole sentences up to MAX_PASSAGE; a longer sentence in runs of whole words. */
function splitProse(content: string, start: number, end: number, context: readonly number[], out: Passage[]): void {
  let runStart = -1;
  let runEnd = -1;
  const flush = () => {
    if (runStart >= 0) out.push({ start: runStart, end: runEnd, context });
    runStart = -1;
  };
  for (let [s, e] of sentenceSpans(content, start, end)) {
    while (e > s && /\s/.test(content[e - 1]!)) e--;
    if (e <= s) continue;
    if (runStart >= 0 && e - runStart <= MAX_PASSAGE) {
      runEnd = e;
      continue;
    }
    flush();
    // The word cap: a sentence longer than a passage (or a block without sentence ends).
    while (e - s > MAX_PASSAGE) {
      const cut = cutEnd(content, s, MAX_PASSAGE);
      let pe = cut;
      while (pe > s && /\s/.test(content[pe - 1]!)) pe--;
      out.push({ start: s, end: pe, context });
      s = cut;
      while (s < e && /\s/.test(content[s]!)) s++;
    }
    if (e > s) {
      runStart = s;
      runEnd = e;
    }
  }
  flush();
}

/**
 * The sentences of content[start, end) as spans, read in windows ending at a word boundary. The last
 * sentence of a window may go on past it, so the next window starts there; a sentence longer than a
 * window comes in window-long spans (the word cap splits them further anyway).
 */
function* sentenceSpans(content: string, start: number, end: number): Generator<[number, number]> {
  for (let at = start; at < end; ) {
    const windowEnd = end - at <= SENTENCE_WINDOW ? end : cutEnd(content, at, SENTENCE_WINDOW);
    const spans = Array.from(sentences.segment(content.slice(at, windowEnd)), ({ index, segment }): [number, number] => [
      at + index,
      at + index + segment.length,
    ]);
    const last = spans.length > 1 && windowEnd < end ? spans.pop()! : null;
    yield* spans;
    at = last ? last[0] : windowEnd;
  }
}

/** A long fenced block in runs of whole lines, each shown inside the block's own fences. */
function splitCode(content: string, start: number, end: number, fence: string, context: readonly number[], out: Passage[]): void {
  const firstBreak = content.indexOf('\n', start);
  const opening = content.slice(start, firstBreak < 0 || firstBreak > end ? end : firstBreak);
  let bodyEnd = content.lastIndexOf('\n', end - 1);
  if (
    bodyEnd < firstBreak ||
    !content
      .slice(bodyEnd + 1, end)
      .trimStart()
      .startsWith(fence)
  )
    bodyEnd = end; // no closing fence
  const lines: Array<[number, number]> = [];
  for (let ls = firstBreak + 1; firstBreak >= 0 && ls < bodyEnd; ) {
    let le = content.indexOf('\n', ls);
    if (le < 0 || le > bodyEnd) le = bodyEnd;
    lines.push([ls, le]);
    ls = le + 1;
  }
  const room = Math.max(1, MAX_PASSAGE - opening.length - fence.length - 2);
  let run: [number, number] | null = null;
  const push = (s: number, e: number) => out.push({ start: s, end: e, context, prefix: `${opening}\n`, suffix: `\n${fence}` });
  for (const [ls, le] of lines) {
    if (run && le - run[0] <= room) {
      run[1] = le;
      continue;
    }
    if (run) push(run[0], run[1]);
    run = null;
    // A line longer than a passage is cut at words, like prose.
    let s = ls;
    while (le - s > room) {
      const cut = cutEnd(content, s, room);
      push(s, cut);
      s = cut;
    }
    run = [s, le];
  }
  if (run && run[1] > run[0]) push(run[0], run[1]);
}
