/** A fenced code block whose fence is longer than any backtick run inside the code. */
export function fence(code: string, lang = ''): string {
  const longest = (code.match(/`{3,}/g) ?? []).reduce((m, r) => Math.max(m, r.length), 0);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${code.replace(/\s+$/, '')}\n${f}`;
}
