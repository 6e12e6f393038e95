// XML → Markdown: RSS/RDF and Atom feeds become a list of items (title, link, date), sitemaps a
// list of URLs, anything else a fenced `xml` block of the document as served.

import { DOMParser } from 'linkedom';
import { escapeLinkText, fence, markdownUrl } from '../markdown/index.js';

/** Local name without namespace prefix, lower-cased (`atom:link` → `link`). */
const local = (el: Element) => (el.localName ?? el.tagName).replace(/^.*:/, '').toLowerCase();

function kids(el: Element, name?: string): Element[] {
  const out: Element[] = [];
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (!name || local(c) === name) out.push(c);
  return out;
}

function childText(el: Element, ...names: string[]): string {
  for (const name of names) {
    const c = kids(el, name)[0];
    const t = c?.textContent?.replace(/\s+/g, ' ').trim();
    if (t) return t;
  }
  return '';
}

function item(title: string, link: string, date: string): string {
  const label = escapeLinkText(title || link || 'Untitled');
  const head = link ? `[${label}](${markdownUrl(link)})` : label;
  return `- ${head}${date ? ` — ${date}` : ''}`;
}

function rss(root: Element): string {
  const channel = kids(root, 'channel')[0] ?? root;
  // RSS 1.0 (RDF) puts items beside the channel, RSS 2.0 inside it.
  const items = [...kids(channel, 'item'), ...(channel === root ? [] : kids(root, 'item'))];
  const lines = items.map((it) => item(childText(it, 'title'), childText(it, 'link', 'guid'), childText(it, 'pubdate', 'date', 'updated')));
  return section(childText(channel, 'title'), childText(channel, 'description'), lines);
}

function atomLink(entry: Element): string {
  const links = kids(entry, 'link');
  const best = links.find((l) => (l.getAttribute('rel') ?? 'alternate') === 'alternate') ?? links[0];
  return best?.getAttribute('href')?.trim() ?? '';
}

function atom(root: Element): string {
  const lines = kids(root, 'entry').map((e) => item(childText(e, 'title'), atomLink(e), childText(e, 'updated', 'published')));
  return section(childText(root, 'title'), childText(root, 'subtitle'), lines);
}

function sitemap(root: Element, entryName: 'url' | 'sitemap'): string {
  const lines = kids(root, entryName).flatMap((u) => {
    const loc = childText(u, 'loc');
    if (!loc) return [];
    const lastmod = childText(u, 'lastmod');
    return [`- ${loc}${lastmod ? ` — ${lastmod}` : ''}`];
  });
  return lines.join('\n');
}

function section(title: string, description: string, lines: string[]): string {
  const parts: string[] = [];
  if (title) parts.push(`# ${title}`);
  if (description) parts.push(description);
  if (lines.length) parts.push(lines.join('\n'));
  return parts.join('\n\n');
}

export type XmlKind = 'rss' | 'atom' | 'sitemap' | 'sitemapindex' | 'other';

/**
 * Nesting past which an XML document is not parsed but fenced as served. The parser keeps its open
 * elements in an array it shifts at the front, so each tag costs time in proportion to the depth:
 * 50,000 nested elements took 6 s, 100,000 a minute. Feeds and sitemaps are a few levels deep.
 */
export const MAX_XML_DEPTH = 1_000;

/** Whether elements nest deeper than `max` (one scan; comments, CDATA, `<?…?>` and `<!…>` skipped). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at + 1)) {
    const next = text[at + 1];
    if (next === '!' || next === '?') {
      const end = text.startsWith('<!--', at)
        ? text.indexOf('-->', at)
        : text.startsWith('<![CDATA[', at)
          ? text.indexOf(']]>', at)
          : text.indexOf('>', at);
      if (end === -1) return false;
      at = end;
    } else if (next === '/') depth--;
    else {
      const end = text.indexOf('>', at);
      if (end === -1) return false;
      if (text[end - 1] !== '/' && ++depth > max) return true;
      at = end;
    }
  }
  return false;
}

export function parseXmlRoot(text: string): Element | null {
  if (nestsDeeperThan(text, MAX_XML_DEPTH)) return null;
  try {
    const doc = new DOMParser().parseFromString(text.replace(/^\uFEFF/, ''), 'text/xml') as unknown as Document;
    return doc.documentElement ?? null;
  } catch {
    return null;
  }
}

export function xmlKind(root: Element | null): XmlKind {
  if (!root) return 'other';
  const name = local(root);
  if (name === 'rss' || name === 'rdf') return 'rss';
  if (name === 'feed') return 'atom';
  if (name === 'urlset') return 'sitemap';
  if (name === 'sitemapindex') return 'sitemapindex';
  return 'other';
}

/** `onParsed` sees the parsed root (a feed's title and language are page metadata: metadata/feeds.ts). */
export function xmlToMarkdown(text: string, onParsed?: (root: Element | null, kind: XmlKind) => void): string {
  if (text.trim() === '') return '';
  const root = parseXmlRoot(text);
  const kind = xmlKind(root);
  onParsed?.(root, kind);
  let md = '';
  if (root && kind === 'rss') md = rss(root);
  else if (root && kind === 'atom') md = atom(root);
  else if (root && kind === 'sitemap') md = sitemap(root, 'url');
  else if (root && kind === 'sitemapindex') md = sitemap(root, 'sitemap');
  return md.trim() || fence(text.replace(/^\uFEFF/, '').trim(), 'xml');
}
