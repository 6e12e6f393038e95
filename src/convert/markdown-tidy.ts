// Final Markdown clean-up: turndown leaves runs of blank lines, trailing spaces and empty list
// items where removed elements used to be, and a heading printed twice (a theme's desktop and
// mobile copies, one upper-cased by CSS) reads once.

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
    out.push(line);
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
