// Markdown syntax every converter writes the same way: code fences, escaped text, link text and
// link targets.

/** A fenced code block, its fence longer than any backtick run inside the code. */
export function fence(code: string, lang = ''): string {
  const longest = (code.match(/`{3,}/g) ?? []).reduce((m, r) => Math.max(m, r.length), 0);
  const f = '`'.repeat(Math.max(3, longest + 1));
  // trimEnd, not `/\s+$/`: that regex is quadratic on a long whitespace run anywhere in the code.
  return `${f}${lang}\n${code.trimEnd()}\n${f}`;
}

// Every whitespace run holding a line break (`breaks`) as `to`, in one linear pass. The same as
// `.replace(/\s*\n+\s*/g, to)`, which is quadratic on a long run of spaces without a break (each start
// rescans the run).
export const breakRunsAs = (s: string, to: string, breaks = /\n/): string => s.replace(/\s+/g, (run) => (breaks.test(run) ? to : run));

/** A cell's or a heading's text on one line: each whitespace run holding a break as one space. */
export const oneLine = (s: string, breaks = /\n/): string => breakRunsAs(s, ' ', breaks);

// turndown's escapes, but for `_`: turndown escapes every one ("user\_function",
// "utm\_source"), while CommonMark reads an underscore between two letters or digits as a literal
// one, never emphasis. The rest escape what could start a list, heading, quote or fence — at the
// start of each text node, as turndown does, since a node may start a line.
const TEXT_ESCAPES: ReadonlyArray<[RegExp, string]> = [
  [/\\/g, '\\\\'],
  [/\*/g, '\\*'],
  [/^-/g, '\\-'],
  [/^\+ /g, '\\+ '],
  [/^(=+)/g, '\\$1'],
  [/^(#{1,6}) /g, '\\$1 '],
  [/`/g, '\\`'],
  [/^~~~/g, '\\~~~'],
  [/\[/g, '\\['],
  [/\]/g, '\\]'],
  [/^>/g, '\\>'],
  [/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_'],
  [/^(\d+)\. /g, '$1\\. '],
];

/** Any character one of TEXT_ESCAPES acts on; most text has none and is returned as it is. */
const NEEDS_ESCAPE = /[\\*`[\]_]|^[-+=#~>\d]/;

/** Text as Markdown: what would read as syntax escaped, intraword underscores left alone. */
export const escapeMarkdownText = (s: string): string =>
  NEEDS_ESCAPE.test(s) ? TEXT_ESCAPES.reduce((acc, [re, to]) => acc.replace(re, to), s) : s;

/** Link or alt text: brackets and backslashes escaped, so the text cannot end the link early. */
export const escapeLinkText = (s: string): string => s.replace(/([[\]\\])/g, '\\$1');

/**
 * A link target: parentheses and whitespace percent-encoded, so the target cannot end early
 * (`encodeURIComponent` leaves parentheses as they are; CDN image URLs are full of them).
 */
export const markdownUrl = (s: string): string =>
  s.replace(/[()\s]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));
