// URLs in metadata: the page's base (its <base href> or served URL) and absolute http(s) URLs resolved
// against it, capped at MAX_URL_CHARS; used for the canonical URL and the links.

import { resolveUrl } from '../markdown/index.js';
import { MAX_URL_CHARS } from './limits.js';

export function baseUrl(baseHref: string | undefined, pageUrl: string | undefined): string | undefined {
  const page = pageUrl && /^https?:/i.test(pageUrl) ? pageUrl : undefined;
  if (baseHref !== undefined) {
    const resolved = resolveUrl(baseHref, page);
    if (resolved && /^https?:/i.test(resolved)) return resolved;
  }
  return page;
}

/** `value` resolved against `base`, when it is an http(s) URL of at most MAX_URL_CHARS; serialized by WHATWG rules. */
export function absoluteHttpUrl(value: string, base: string | undefined, dropFragment: boolean): string | undefined {
  if (value.length > MAX_URL_CHARS) return undefined;
  const resolved = resolveUrl(value, base);
  if (resolved === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(resolved);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (dropFragment) url.hash = '';
  const href = url.href;
  return href.length > MAX_URL_CHARS ? undefined : href;
}
