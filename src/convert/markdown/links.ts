// Absolute links and image sources, resolved once and kept in data attributes that turndown reads
// back: exactly as the page wrote them, where `new URL(u, base).href` would change them (a trailing
// slash on bare origins).
import { descendants, tagOf } from '../dom-utils.js';
import { firstElementBelow } from '../linkedom-reads.js';

export const HREF_ATTR = 'data-ws-href';
export const SRC_ATTR = 'data-ws-src';
/** Marks a link to a place on the page itself (`#id`), where a permalink or back-reference points. */
export const SELF_ATTR = 'data-ws-self';

/** Resolves `value` against `base`; keeps an already absolute http(s) URL exactly as written. */
export function resolveUrl(value: string, base: string | undefined): string | undefined {
  const v = value.trim();
  if (v === '' || /^(javascript|data|vbscript|blob):/i.test(v)) return undefined;
  if (/^https?:\/\//i.test(v)) return v;
  if (v.startsWith('#') && base === undefined) return undefined;
  if (base === undefined) return /^[a-z][a-z0-9+.-]*:/i.test(v) ? v : undefined;
  try {
    return new URL(v, base).href;
  } catch {
    return undefined;
  }
}

const isBase = (el: Element) => tagOf(el) === 'base' && el.hasAttribute('href');

/**
 * The base URL of a document: its `<base href>` resolved against the page URL, else the page URL.
 * `elements`, when given: descendants(doc).
 */
export function documentBase(doc: Document, pageUrl: string | undefined, elements?: readonly Element[]): string | undefined {
  const baseHref = (elements ? elements.find(isBase) : firstElementBelow(doc, isBase))?.getAttribute('href');
  if (baseHref) {
    const resolved = resolveUrl(baseHref, pageUrl);
    if (resolved) return resolved;
  }
  return pageUrl && /^https?:/i.test(pageUrl) ? pageUrl : undefined;
}

const withoutFragment = (url: string) => url.replace(/#.*$/, '');

const LAZY_SRC_ATTRS = ['data-src', 'data-lazy-src', 'data-original', 'data-url'];

/** Stores the absolute form of every link and image source on the element itself. `all`: descendants(root). */
export function absolutizeLinks(root: ParentNode, base: string | undefined, all: readonly Element[] = descendants(root)): void {
  for (const a of all) {
    if (tagOf(a) !== 'a' || !a.hasAttribute('href')) continue;
    const raw = a.getAttribute('href') ?? '';
    // A bare "#" goes nowhere (a script's button): its text stays, without a link.
    const abs = /^\s*#!?\s*$/.test(raw) ? undefined : resolveUrl(raw, base);
    if (abs) a.setAttribute(HREF_ATTR, abs);
    else a.removeAttribute('href');
    if (raw.trim().startsWith('#') || (abs && base && abs.includes('#') && withoutFragment(abs) === withoutFragment(base)))
      a.setAttribute(SELF_ATTR, '');
  }
  for (const img of all) {
    if (tagOf(img) !== 'img') continue;
    let src = img.getAttribute('src') ?? '';
    // Lazy-loading pages put a placeholder (often a data: URI) in src and the real one elsewhere.
    if (src === '' || src.startsWith('data:')) {
      for (const attr of LAZY_SRC_ATTRS) {
        const v = img.getAttribute(attr);
        if (v) {
          src = v;
          break;
        }
      }
    }
    const abs = resolveUrl(src, base);
    if (abs) img.setAttribute(SRC_ATTR, abs);
  }
}
