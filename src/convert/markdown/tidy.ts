// Final Markdown clean-up: turndown leaves runs of blank lines, trailing spaces and empty list
// items where removed elements used to be. A heading or a link/image line printed twice in a row
// (a theme's desktop and mobile copies, one upper-cased by CSS) reads once, as does the page's
// title (its first "# " heading) when a later heading or plain line repeats its words. turndown
// escapes what would start a list, heading or quote at the start of every text node, most of them
// mid-line ("Steps: 1\. Plan 2\. Build"), where nothing needs escaping: those backslashes go.
// Debris of removed chrome goes too: lines of one or two separator signs ("|", "×", "\-"), lines
// of zero-width characters, table rows whose every cell is empty, and rules with nothing left
// between or after them.

export function tidyMarkdown(md: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let blank = 0;
  const lines = md.split('\n');
  let title: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const fenceMatch = /^(`{3,}|~{3,})/.exec(raw.trimStart());
    if (fence !== null) {
      out.push(raw);
      if (fenceMatch && raw.trim() === fence) fence = null;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      if (blank > 0 && out.length > 0) out.push('');
      blank = 0;
      out.push(raw.trimEnd());
      continue;
    }
    // Two trailing spaces are a Markdown hard line break (<br>); other trailing blanks go.
    const line = withoutTrailingBlanks(raw);
    // Empty bullets, numbered items and headings left by removed content.
    if (/^\s*(?:[-*+]|\d+\.|#{1,6})\s*$/.test(line) || DEBRIS.test(line)) continue;
    if (isTableStart(lines, i)) {
      const rows = tableRows(lines, i);
      i += rows.length - 1;
      const kept = rows.filter((row, r) => r < 2 || !EMPTY_ROW.test(row));
      if (kept.length === 2 && EMPTY_ROW.test(kept[0]!)) continue; // a table of nothing
      if (blank > 0 && out.length > 0) out.push('');
      blank = 0;
      out.push(...kept.map(unescapeMidLine));
      continue;
    }
    if (line.trim() === '') {
      blank++;
      continue;
    }
    if (repeatsPrevious(line, out[out.length - 1])) continue;
    if (title === undefined && line.startsWith('# ')) title = wordKey(line);
    else if (title && TITLE_LIKE.test(line) && hasWordKey(line, title)) continue; // the title again
    // A rule separates content: none first, none twice in a row (what stood between was removed).
    if (line === HR && (out.length === 0 || out[out.length - 1] === HR)) continue;
    if (blank > 0 && out.length > 0) out.push('');
    blank = 0;
    out.push(unescapeMidLine(line));
  }
  while (out.length > 0 && (out[out.length - 1] === HR || out[out.length - 1] === '')) out.pop();
  return out.join('\n').trim();
}

/** turndown's thematic break. */
const HR = '---';

// A line of only zero-width characters reads as blank; one or two separator signs are debris.
// A list item holding only a rule is debris too.
const DEBRIS = /^\s*(?:[\u200b-\u200d\u2060\ufeff]+|(?:\\?[-–—×/|•·]){1,2}|(?:[-*+]|\d+\.)\s+---)\s*$/u;
const TABLE_RULE = /^\|(?:\s*:?-{3,}:?\s*\|)+\s*$/;
const EMPTY_ROW = /^\|(?:\s*\|)+\s*$/;

/** A GFM table starts here: a row, then the rule under its header. */
const isTableStart = (lines: readonly string[], i: number) => lines[i]!.startsWith('|') && TABLE_RULE.test(lines[i + 1] ?? '');

function tableRows(lines: readonly string[], i: number): string[] {
  const rows: string[] = [];
  for (let j = i; j < lines.length && lines[j]!.startsWith('|'); j++) rows.push(lines[j]!.trimEnd());
  return rows;
}

// End-anchored regexes (`/[ \t]+$/`, `/\s+$/`) rescan a run from each of its starts: quadratic on a
// long run in the middle of a line. These walks are linear.

/** `line.replace(/[ \t]+$/, '')`, but two trailing spaces (a hard line break) are kept. */
function withoutTrailingBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return line.length - end === 2 && line.endsWith('  ') ? line : line.slice(0, end);
}

/** `s.replace(/\]\([^)]*\)/g, ']')`: link targets dropped (the regex rescans to the end from every `](` without a `)`). */
function withoutTargets(s: string): string {
  let out = '';
  let from = 0;
  for (let open = s.indexOf('](', from); open !== -1; open = s.indexOf('](', from)) {
    const close = s.indexOf(')', open + 2);
    if (close === -1) break;
    out += s.slice(from, open + 1);
    from = close + 1;
  }
  return out + s.slice(from);
}

const WORD = /[\p{L}\p{N}]+/gu;

/** A line's words, lower-cased and joined, link targets aside: how a title is recognised again. */
const wordKey = (s: string) => withoutTargets(s).toLowerCase().match(WORD)?.join(' ') ?? '';

/**
 * `wordKey(s) === key` for a non-empty key, word by word: asked of every plain line after the title,
 * it stops at the first word that differs (most lines' first) instead of joining all of a line's words.
 */
function hasWordKey(s: string, key: string): boolean {
  const lower = withoutTargets(s).toLowerCase();
  let at = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(lower); m !== null; m = WORD.exec(lower)) {
    if (at > 0 && key.charCodeAt(at++) !== 32) return false;
    const word = m[0];
    if (!key.startsWith(word, at)) return false;
    at += word.length;
  }
  return at === key.length;
}

/** A heading or a plain line (not a list item, quote, table row, image or link line). */
const TITLE_LIKE = /^(?:#{1,6} |\*\*|[\p{L}\p{N}])/u;

/**
 * `previous`: the last line written (blank separators are written only after this test). A copy is
 * a heading with the previous heading's words, or a link or image line exactly as before it (a
 * logo's or a button's other copy).
 */
function repeatsPrevious(line: string, previous: string | undefined): boolean {
  if (previous === undefined) return false;
  if (line.startsWith('#') && previous.startsWith('#')) {
    const w = wordKey(line);
    return w !== '' && w === wordKey(previous);
  }
  return line === previous && /^!?\[/.test(line);
}

// A line's block markers (indent, quotes, bullets, numbers): an escape right after them is needed.
const LINE_START = /^\s*(?:(?:>|[-*+]|\d+[.)])\s+)*/;
// Inline code and link targets are taken as written; elsewhere an escape of a line-start sign
// (an even run of backslashes before it is escaped backslashes, not an escape).
const VERBATIM_OR_ESCAPE = /(`+)[\s\S]*?(?<!`)\1(?!`)|\]\([^)\s]*\)|(?<!\\)((?:\\\\)*)\\(?=[-+=>#~]|(?<=\d\\)\.)/g;

// Longer lines are left as they are: the code-span scan is quadratic in unmatched backticks.
const MAX_LINE = 2_000;

function unescapeMidLine(line: string): string {
  if (line.length > MAX_LINE || !line.includes('\\')) return line;
  const start = LINE_START.exec(line)![0].length;
  return line.replace(VERBATIM_OR_ESCAPE, (m, _ticks, pairs: string | undefined, at: number) => {
    if (pairs === undefined) return m;
    const slash = at + pairs.length;
    // Needed where the sign starts the line's text, or ends the number that does ("1\. ").
    return slash === start || /^\d+$/.test(line.slice(start, slash)) ? m : pairs;
  });
}
