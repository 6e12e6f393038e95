// Last-resort text of an HTML document, without a DOM: used when the converter itself fails.
// Every step is linear: a lazy `[\s\S]*?<\/script>` or `<[^>]*>` rescans to the end from each
// opener that is never closed (80,000 `<` took 0.6 s, 320,000 ten times that).

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

const RAW_OPEN = /<(script|style|template|noscript)\b/gi;

/** `<script …>…</script>` (and style, template, noscript) as one space; an unclosed one stays for the tag pass. */
function withoutRawText(html: string): string {
  let out = '';
  let from = 0;
  const unclosed = new Set<string>(); // no closer after the first opener that lacked one: none after a later one
  RAW_OPEN.lastIndex = 0;
  for (let m = RAW_OPEN.exec(html); m; m = RAW_OPEN.exec(html)) {
    const name = m[1]!.toLowerCase();
    const gt = html.indexOf('>', RAW_OPEN.lastIndex);
    if (gt === -1) break; // no `>` after here: no tag can end
    if (unclosed.has(name)) continue;
    const close = new RegExp(`</${name}\\s*>`, 'gi');
    close.lastIndex = gt + 1;
    const end = close.exec(html);
    if (!end) {
      unclosed.add(name);
      continue;
    }
    out += html.slice(from, m.index) + ' ';
    from = close.lastIndex;
    RAW_OPEN.lastIndex = from;
  }
  return out + html.slice(from);
}

/** Every `open…close` span as `to`; an opener without a closer ends the search (none can close later). */
function replaceSpans(s: string, open: string, close: string, to: (span: string) => string): string {
  let out = '';
  let from = 0;
  for (let at = s.indexOf(open, from); at !== -1; at = s.indexOf(open, from)) {
    const end = s.indexOf(close, at + open.length);
    if (end === -1) break;
    out += s.slice(from, at) + to(s.slice(at, end + close.length));
    from = end + close.length;
  }
  return out + s.slice(from);
}

const BLOCK_OPEN = /<\/?(?:p|div|br|li|tr|h[1-6]|section|article|blockquote|pre|table)\b/gi;

/** Block tags as line breaks (`/<\/?(?:p|…)\b[^>]*>/gi`, without rescanning for a missing `>`). */
function blockTagsAsBreaks(html: string): string {
  let out = '';
  let from = 0;
  BLOCK_OPEN.lastIndex = 0;
  for (let m = BLOCK_OPEN.exec(html); m; m = BLOCK_OPEN.exec(html)) {
    const gt = html.indexOf('>', BLOCK_OPEN.lastIndex);
    if (gt === -1) break;
    out += html.slice(from, m.index) + '\n';
    from = gt + 1;
    BLOCK_OPEN.lastIndex = from;
  }
  return out + html.slice(from);
}

export function plainTextOfHtml(html: string): string {
  const noComments = replaceSpans(withoutRawText(html), '<!--', '-->', () => ' ');
  return replaceSpans(blockTagsAsBreaks(noComments), '<', '>', () => ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/\s+/g, (run) => (run.includes('\n') ? '\n' : run)) // `/\s*\n\s*/g`, linear
    .trim();
}
