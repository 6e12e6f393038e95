// Bounds the nesting the HTML parser sees. linkedom's parser (htmlparser2) keeps its open elements
// in an array it `unshift`s and `shift`s at the front, so every tag costs time in proportion to the
// current depth: 300,000 `<b>` never closed took 86 s to parse. This pass replays the parser's
// stack (its implied closes, void elements, raw-text elements, foreign content) in one linear scan
// and removes the open tags that would nest deeper than the cap, with nothing else changed: below
// the cap the page is returned as it came, character for character. Text inside a removed tag stays
// where it was, in the deepest element kept (dom-guard.ts flattens everything below MAX_DEPTH to
// text anyway). parseHtmlDocument replays only a page whose watched parse was given up
// (parse-depth.ts): one the parser nests past half the cap, or with a CDATA section.

import {
  foreignContextElements as FOREIGN,
  openImpliesClose as IMPLIES_CLOSE,
  htmlIntegrationElements as INTEGRATION,
  voidElements as VOID,
} from './parser-rules.js';

/** Deeper than dom-guard's MAX_DEPTH, so no page the guard leaves intact is changed here. */
export const MAX_PARSE_DEPTH = 1_000;

/** The tokenizer reads these as raw text up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const isLetter = (c: number) => (c | 0x20) >= 97 && (c | 0x20) <= 122;

/** The parser's open-element stack, top last, with a count per name so absent closers cost O(1). */
class OpenElements {
  readonly names: string[] = [];
  private readonly counts = new Map<string, number>();
  push(name: string): void {
    this.names.push(name);
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }
  pop(): void {
    const name = this.names.pop()!;
    this.counts.set(name, this.counts.get(name)! - 1);
  }
  has(name: string): boolean {
    return (this.counts.get(name) ?? 0) > 0;
  }
  /** Closes `name` and everything opened after it (cost: the elements closed). */
  closeThrough(name: string): void {
    while (this.names.length > 0 && this.names[this.names.length - 1] !== name) this.pop();
    this.pop();
  }
}

/** `html` with the open tags that would nest deeper than `maxDepth` removed (the same string when none do). */
export function capNesting(html: string, maxDepth = MAX_PARSE_DEPTH): string {
  if (!moreStartTags(html, maxDepth)) return html;
  const stack = new OpenElements();
  const foreign: boolean[] = []; // htmlparser2's foreignContext, top last
  const removed: Array<[number, number]> = [];
  const n = html.length;
  let i = html.indexOf('<');
  while (i >= 0 && i < n - 1) {
    const c = html.charCodeAt(i + 1);
    let end: number; // index just past the markup starting at i
    if (c === 33 /* ! */) {
      if (html.startsWith('<!--', i)) end = afterOr(html, html.indexOf('-->', i + 4), 3);
      // CDATA is real only in SVG/MathML; elsewhere a browser ends it at the first `>` (parse-html.ts
      // re-reads it so), and the markup after it counts.
      else if (html.startsWith('<![CDATA[', i) && foreign[foreign.length - 1]) end = afterOr(html, html.indexOf(']]>', i + 9), 3);
      else end = afterOr(html, html.indexOf('>', i + 2), 1);
    } else if (c === 63 /* ? */) {
      end = afterOr(html, html.indexOf('>', i + 2), 1);
    } else if (c === 47 /* / */ && i + 2 < n && isLetter(html.charCodeAt(i + 2))) {
      const nameEnd = tagNameEnd(html, i + 2);
      closeTag(html.slice(i + 2, nameEnd).toLowerCase(), stack, foreign);
      end = afterOr(html, html.indexOf('>', nameEnd), 1);
    } else if (c === 47 /* / */) {
      end = afterOr(html, html.indexOf('>', i + 2), 1); // `</` then no letter: a bogus comment
    } else if (isLetter(c)) {
      const nameEnd = tagNameEnd(html, i + 1);
      const name = html.slice(i + 1, nameEnd).toLowerCase();
      const [tagEnd, selfClosing] = openTagEnd(html, nameEnd);
      end = tagEnd;
      if (openTag(name, selfClosing, stack, foreign, maxDepth)) {
        if (RAW_TEXT.has(name)) end = rawTextEnd(html, name, end);
      } else removed.push([i, end]);
    } else {
      end = i + 1; // a lone `<` is text
    }
    i = html.indexOf('<', end);
  }
  if (removed.length === 0) return html;
  const parts: string[] = [];
  let from = 0;
  for (const [start, stop] of removed) {
    parts.push(html.slice(from, start));
    from = stop;
  }
  parts.push(html.slice(from));
  return parts.join('');
}

/**
 * Whether `html` holds more than `max` start tags (`<` then an ASCII letter, wherever it stands): each
 * open element was opened by one, so a page with no more cannot nest deeper than `max` and needs no
 * replay (most pages; the count stops at `max + 1`).
 */
function moreStartTags(html: string, max: number): boolean {
  let count = 0;
  for (let lt = html.indexOf('<'); lt >= 0; lt = html.indexOf('<', lt + 1))
    if (isLetter(html.charCodeAt(lt + 1)) && ++count > max) return true;
  return false;
}

/** Applies an open tag to the stack; false (and no effect) when it would nest deeper than `maxDepth`. */
function openTag(name: string, selfClosing: boolean, stack: OpenElements, foreign: boolean[], maxDepth: number): boolean {
  const closes = IMPLIES_CLOSE.get(name);
  let closed = 0;
  if (closes) while (closed < stack.names.length && closes.has(stack.names[stack.names.length - 1 - closed]!)) closed++;
  if (VOID.has(name)) {
    for (let k = 0; k < closed; k++) stack.pop();
    return true;
  }
  if (stack.names.length - closed >= maxDepth) return false;
  for (let k = 0; k < closed; k++) stack.pop();
  stack.push(name);
  if (FOREIGN.has(name)) foreign.push(true);
  else if (INTEGRATION.has(name)) foreign.push(false);
  // `<x/>` closes itself only in foreign content (the parser then leaves its foreign context as is).
  if (selfClosing && foreign[foreign.length - 1]) stack.pop();
  return true;
}

function closeTag(name: string, stack: OpenElements, foreign: boolean[]): void {
  if (FOREIGN.has(name) || INTEGRATION.has(name)) foreign.pop();
  if (!VOID.has(name) && stack.has(name)) stack.closeThrough(name);
  // `</p>` with no open <p> makes an empty one, `</br>` a <br>: neither changes the depth.
}

function afterOr(html: string, found: number, length: number): number {
  return found < 0 ? html.length : found + length;
}

function tagNameEnd(html: string, from: number): number {
  let j = from;
  while (j < html.length) {
    const c = html.charCodeAt(j);
    if (isSpace(c) || c === 47 /* / */ || c === 62 /* > */) break;
    j++;
  }
  return j;
}

/** Index past an open tag's `>` (quoted attribute values may hold `>`), and whether it ended in `/>`. */
function openTagEnd(html: string, from: number): [number, boolean] {
  let j = from;
  let afterEquals = false;
  while (j < html.length) {
    const c = html.charCodeAt(j);
    if (c === 62 /* > */) return [j + 1, html.charCodeAt(j - 1) === 47];
    if (afterEquals && (c === 34 || c === 39) /* " ' */) {
      const close = html.indexOf(c === 34 ? '"' : "'", j + 1);
      if (close < 0) return [html.length, false];
      j = close + 1;
      afterEquals = false;
      continue;
    }
    if (c === 61 /* = */) afterEquals = true;
    else if (!isSpace(c)) afterEquals = false;
    j++;
  }
  return [html.length, false];
}

/** Index just past the end tag of a raw-text element (`</script` then a space, `/` or `>`), or the end. */
function rawTextEnd(html: string, name: string, from: number): number {
  const needle = `</${name}`;
  let j = from;
  for (;;) {
    j = indexOfIgnoreCase(html, needle, j);
    if (j < 0) return html.length;
    const after = html.charCodeAt(j + needle.length);
    if (Number.isNaN(after) || isSpace(after) || after === 47 || after === 62) return j;
    j += needle.length;
  }
}

/** indexOf for an ASCII lower-case needle, ignoring the case of the haystack, without copying it. */
function indexOfIgnoreCase(html: string, needle: string, from: number): number {
  for (let j = html.indexOf('</', from); j >= 0; j = html.indexOf('</', j + 2)) {
    let k = 2;
    while (k < needle.length && (html.charCodeAt(j + k) | 0x20) === needle.charCodeAt(k)) k++;
    if (k === needle.length) return j;
  }
  return -1;
}
