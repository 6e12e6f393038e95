// Final Markdown clean-up: turndown leaves runs of blank lines, trailing spaces and empty list
// items where removed elements used to be.

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
    if (blank > 0 && out.length > 0) out.push('');
    blank = 0;
    out.push(line);
  }
  return out.join('\n').trim();
}
