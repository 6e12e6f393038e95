// Markdown syntax every converter writes the same way: code fences, link text and link targets.

/** A fenced code block, its fence longer than any backtick run inside the code. */
export function fence(code: string, lang = ''): string {
  const longest = (code.match(/`{3,}/g) ?? []).reduce((m, r) => Math.max(m, r.length), 0);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${code.replace(/\s+$/, '')}\n${f}`;
}

/** Link or alt text: brackets and backslashes escaped, so the text cannot end the link early. */
export const escapeLinkText = (s: string): string => s.replace(/([[\]\\])/g, '\\$1');

/**
 * A link target: parentheses and whitespace percent-encoded, so the target cannot end early
 * (`encodeURIComponent` leaves parentheses as they are; CDN image URLs are full of them).
 */
export const markdownUrl = (s: string): string =>
  s.replace(/[()\s]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));
