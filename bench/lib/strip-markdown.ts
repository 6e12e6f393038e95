// Markdown → the plain text the WCXB metric scores (README: strip link targets, image syntax,
// emphasis and heading marks, code-fence language tags and table pipes, so URLs and markup
// never count as words).

// Bracketed text may hold escaped brackets (`[\[1\]](…)`, an image alt text `\[X-Info\]`), as Markdown allows.
const BRACKETED = String.raw`\[((?:\\.|[^\]\\])*)\]\((?:\\.|[^)\\])*\)`;
const IMAGE = new RegExp(`!${BRACKETED}`, 'g');
const LINK = new RegExp(BRACKETED, 'g');

export function stripMarkdown(md: string): string {
  const lines: string[] = [];
  let inFence = false;
  for (const raw of md.split('\n')) {
    if (/^\s*(`{3,}|~{3,})/.test(raw)) {
      inFence = !inFence;
      continue; // the fence line, with its language tag
    }
    if (inFence) {
      lines.push(raw);
      continue;
    }
    let line = raw;
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) continue; // table separator
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) continue; // horizontal rule
    line = line
      .replace(IMAGE, ' ')
      .replace(LINK, '$1')
      .replace(/<[^>]+>/g, ' ')
      // Quote, then list marker, then heading mark: "### 1. Multimeter" is a heading whose text
      // starts with "1.", and "- ## Title" a list item holding a heading.
      .replace(/^\s*(?:>\s*)+/, '')
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
      .replace(/^\s*#{1,6}\s+/, '')
      .replace(/\|/g, ' ')
      .replace(/(\*\*|__|~~)/g, '')
      .replace(/(^|[^\w\\])[*_]+(?=\w)/g, '$1')
      .replace(/(\w)[*_]+(?=[^\w]|$)/g, '$1')
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
    lines.push(line);
  }
  return lines.join('\n');
}
