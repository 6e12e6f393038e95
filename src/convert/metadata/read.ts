// What a page says about itself: title, description, language, dates, site name, canonical URL
// (docs/extract.md, "Page metadata"), and optionally its links. Read from the parsed document before
// the clean-up removes <head>, <meta> and <script>: one walk over the elements plus the JSON-LD blocks
// structured-data.ts already parsed, so linear in the page. Every value is trimmed, whitespace-collapsed
// and capped, and a value that does not parse (a date, a URL, a language tag) is left out, never guessed.
// This file holds the element walk and the precedence among sources; the helpers are in this folder.

import type { PageMetadata } from '../../types/index.js';
import { descendants, tagOf } from '../dom-utils.js';
import { articleTime, normalizeDate } from './dates.js';
import { readJsonLd } from './json-ld.js';
import { MAX_DESCRIPTION_CHARS, MAX_LINKS, MAX_SITE_NAME_CHARS, MAX_TITLE_CHARS } from './limits.js';
import { firstOf, firstText, languageTag } from './text.js';
import { absoluteHttpUrl, baseUrl } from './urls.js';

export interface PageMetadataOptions {
  /** The URL the page was served from (after redirects): relative URLs resolve against it (or its <base href>). */
  url?: string | undefined;
  /** JSON-LD blocks as parsed (StructuredData.jsonLd); without them JSON-LD is not read. */
  jsonLd?: readonly unknown[] | undefined;
  /** Collect the page's links too. */
  links?: boolean | undefined;
  /** The HTTP Content-Language header, the last source of `language`. */
  contentLanguage?: string | undefined;
}

export interface PageFacts {
  /** Without `final_url`: the engine adds it. */
  metadata: PageMetadata;
  /** When asked for: absolute http(s) links, fragment dropped, deduplicated, in document order, at most MAX_LINKS. */
  links?: string[];
}

/** Meta names and properties (lower-case) per field, in precedence order. */
const TITLE_META = ['og:title', 'twitter:title', 'dcterms.title', 'dc.title'];
const DESCRIPTION_META = ['description', 'og:description', 'twitter:description', 'dcterms.description', 'dc.description'];
const PUBLISHED_OG = ['article:published_time', 'og:article:published_time', 'og:published_time'];
const PUBLISHED_OTHER = [
  'dcterms.issued',
  'dcterms.created',
  'dcterms.date',
  'dc.date.issued',
  'dc.date.created',
  'dc.date',
  'citation_publication_date',
  'citation_date',
  'parsely-pub-date',
  'sailthru.date',
  'pubdate',
  'publishdate',
  'publish-date',
  'date',
];
const MODIFIED_OG = ['article:modified_time', 'og:article:modified_time', 'og:updated_time'];
const MODIFIED_OTHER = ['dcterms.modified', 'dc.date.modified', 'last-modified'];
const DATE_ITEMPROPS = new Set(['datepublished', 'datemodified']);

/** `all`, when given, must be descendants(doc). */
export function readPageMetadata(doc: Document, options: PageMetadataOptions = {}, all: readonly Element[] = descendants(doc)): PageFacts {
  const meta = new Map<string, string>(); // first content per lower-cased name/property/itemprop
  const itemprops = new Map<string, string>(); // microdata on any element (meta, time, span…)
  let title: string | undefined;
  let canonical: string | undefined;
  let baseHref: string | undefined;
  const articles: Element[] = [];
  const anchors: Element[] = [];
  let pubdateTime: string | undefined; // <time pubdate datetime>: the article's by definition
  let titleChecks = 0;

  for (const el of all) {
    const tag = tagOf(el);
    const prop = el.getAttribute('itemprop');
    if (prop !== null) {
      for (const p of prop.toLowerCase().split(/\s+/)) {
        if (!DATE_ITEMPROPS.has(p) || itemprops.has(p) || inCommentScope(el)) continue;
        const value = el.getAttribute('content') ?? el.getAttribute('datetime') ?? (tag === 'meta' ? null : el.textContent);
        if (value !== null) itemprops.set(p, value);
      }
    }
    switch (tag) {
      case 'meta': {
        const content = el.getAttribute('content');
        if (content === null) break;
        for (const attr of ['name', 'property', 'http-equiv']) {
          const key = el.getAttribute(attr)?.trim().toLowerCase();
          if (key && !meta.has(key)) meta.set(key, content);
        }
        break;
      }
      case 'title':
        // An SVG's <title> names a drawing, not the page; a few candidates at most are checked.
        if (title === undefined && titleChecks++ < 16 && !insideSvg(el)) title = el.textContent ?? '';
        break;
      case 'link':
        if (canonical === undefined && hasToken(el.getAttribute('rel'), 'canonical')) canonical = el.getAttribute('href') ?? undefined;
        break;
      case 'base':
        if (baseHref === undefined && el.hasAttribute('href')) baseHref = el.getAttribute('href') ?? undefined;
        break;
      case 'article':
        articles.push(el);
        break;
      case 'time':
        if (pubdateTime === undefined && el.hasAttribute('pubdate') && el.hasAttribute('datetime'))
          pubdateTime = el.getAttribute('datetime') ?? undefined;
        break;
      case 'a':
      case 'area':
        if (options.links) anchors.push(el);
        break;
    }
  }

  const base = baseUrl(baseHref, options.url);
  const ld = readJsonLd(options.jsonLd ?? []);
  const pick = (names: readonly string[]) => names.map((n) => meta.get(n));

  const metadata: PageMetadata = {};
  const put = <K extends keyof PageMetadata>(key: K, value: string | undefined) => {
    if (value !== undefined) metadata[key] = value;
  };
  put('title', firstText(MAX_TITLE_CHARS, title, ...pick(TITLE_META), ld.headline));
  put('description', firstText(MAX_DESCRIPTION_CHARS, ...pick(DESCRIPTION_META), ld.description));
  const root = doc.documentElement;
  const htmlLang = root?.getAttribute('lang') ?? root?.getAttribute('xml:lang') ?? undefined;
  put('language', firstOf(languageTag, htmlLang, meta.get('content-language'), options.contentLanguage));
  put(
    'published_time',
    firstOf(
      normalizeDate,
      ...pick(PUBLISHED_OG),
      ld.datePublished,
      itemprops.get('datepublished'),
      ...pick(PUBLISHED_OTHER),
      pubdateTime ?? articleTime(articles),
    ),
  );
  put(
    'modified_time',
    firstOf(normalizeDate, ...pick(MODIFIED_OG), ld.dateModified, itemprops.get('datemodified'), ...pick(MODIFIED_OTHER)),
  );
  put('site_name', firstText(MAX_SITE_NAME_CHARS, meta.get('og:site_name'), ld.siteName));
  put(
    'canonical_url',
    firstOf((u) => absoluteHttpUrl(u, base, false), canonical, meta.get('og:url')),
  );

  if (!options.links) return { metadata };
  const links: string[] = [];
  const seen = new Set<string>();
  for (const a of anchors) {
    const href = a.getAttribute('href');
    const abs = href === null ? undefined : absoluteHttpUrl(href, base, true);
    if (abs === undefined || seen.has(abs)) continue;
    seen.add(abs);
    links.push(abs);
    if (links.length >= MAX_LINKS) break;
  }
  return { metadata, links };
}

const hasToken = (list: string | null, token: string) => list?.toLowerCase().split(/\s+/).includes(token);

function insideSvg(el: Element): boolean {
  for (let p = el.parentElement; p; p = p.parentElement) if (tagOf(p) === 'svg') return true;
  return false;
}

/** Microdata of a comment or an answer (its nearest item scope): its dates are not the page's. */
function inCommentScope(el: Element): boolean {
  let depth = 0;
  for (let p: Element | null = el; p && depth < 64; p = p.parentElement, depth++) {
    // An element with both itemprop and itemscope is a property of the outer item, not a scope for its own date.
    if (p !== el && p.hasAttribute('itemscope')) return /(?:^|[/#])(?:Comment|Answer)\b/i.test(p.getAttribute('itemtype') ?? '');
  }
  return false;
}
