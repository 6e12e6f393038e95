// Final Markdown clean-up: turndown leaves runs of blank lines, trailing spaces and empty list
// items where removed elements used to be, and a heading printed twice (a theme's desktop and
// mobile copies, one upper-cased by CSS) reads once. turndown escapes what would start a list,
// heading or quote at the start of every text node, most of them mid-line ("Steps: 1\. Plan
// 2\. Build"), where nothing needs escaping: those backslashes go.

export function tidyMarkdown(md: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let blank = 0;
  for (const raw of md.split('\n')) {
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
    const line = raw.replace(/[ \t]+$/, (m) => (m === '  ' ? m : ''));
    // Empty bullets, numbered items and headings left by removed content.
    if (/^\s*(?:[-*+]|\d+\.|#{1,6})\s*$/.test(line)) continue;
    if (line.trim() === '') {
      blank++;
      continue;
    }
    if (isHeadingCopy(line, out[out.length - 1])) continue;
    if (blank > 0 && out.length > 0) out.push('');
    blank = 0;
    out.push(unescapeMidLine(line));
  }
  return out.join('\n').trim();
}

/** A heading whose words are the previous heading's, right after it. */
function isHeadingCopy(line: string, previous: string | undefined): boolean {
  if (previous === undefined || !line.startsWith('#') || !previous.startsWith('#')) return false;
  const words = (s: string) => s.replace(/\]\([^)]*\)/g, ']').toLowerCase().match(/[\p{L}\p{N}]+/gu)?.join(' ') ?? '';
  const w = words(line);
  return w !== '' && w === words(previous);
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
