// What a page says about itself: title, description, language, dates, site name, canonical URL
// (docs/extract.md, "Page metadata"), and optionally its links. Read from the parsed document before
// the clean-up removes <head>, <meta> and <script>: one walk over the elements plus the JSON-LD blocks
// structured-data.ts already parsed, so linear in the page. Every value is trimmed, whitespace-collapsed
// and capped, and a value that does not parse (a date, a URL, a language tag) is left out, never guessed.

import type { PageMetadata } from '../types.js';
import { descendants, tagOf } from './dom-utils.js';
import { resolveUrl } from './links.js';
import type { XmlKind } from './xml-to-markdown.js';

export const MAX_TITLE_CHARS = 500;
export const MAX_DESCRIPTION_CHARS = 1_000;
export const MAX_SITE_NAME_CHARS = 200;
export const MAX_URL_CHARS = 2_048;
export const MAX_LINKS = 1_000;

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
  'dcterms.issued', 'dcterms.created', 'dcterms.date', 'dc.date.issued', 'dc.date.created', 'dc.date',
  'citation_publication_date', 'citation_date', 'parsely-pub-date', 'sailthru.date', 'pubdate', 'publishdate',
  'publish-date', 'date',
];
const MODIFIED_OG = ['article:modified_time', 'og:article:modified_time', 'og:updated_time'];
const MODIFIED_OTHER = ['dcterms.modified', 'dc.date.modified', 'last-modified'];
const DATE_ITEMPROPS = new Set(['datepublished', 'datemodified']);

export function readPageMetadata(doc: Document, options: PageMetadataOptions = {}): PageFacts {
  const meta = new Map<string, string>(); // first content per lower-cased name/property/itemprop
  const itemprops = new Map<string, string>(); // microdata on any element (meta, time, span…)
  let title: string | undefined;
  let canonical: string | undefined;
  let baseHref: string | undefined;
  const articles: Element[] = [];
  const anchors: Element[] = [];
  let pubdateTime: string | undefined; // <time pubdate datetime>: the article's by definition
  let titleChecks = 0;

  for (const el of descendants(doc)) {
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
        if (pubdateTime === undefined && el.hasAttribute('pubdate') && el.hasAttribute('datetime')) pubdateTime = el.getAttribute('datetime') ?? undefined;
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
  put('modified_time', firstOf(normalizeDate, ...pick(MODIFIED_OG), ld.dateModified, itemprops.get('datemodified'), ...pick(MODIFIED_OTHER)));
  put('site_name', firstText(MAX_SITE_NAME_CHARS, meta.get('og:site_name'), ld.siteName));
  put('canonical_url', firstOf((u) => absoluteHttpUrl(u, base, false), canonical, meta.get('og:url')));

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

// ---- text ----

const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g;

/** Trimmed, whitespace collapsed, control characters removed, at most `max` characters (never half a surrogate pair); undefined when empty. */
export function cleanText(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  // Bounded before the regular expressions run: a hostile 10 MB attribute costs a slice, not a scan.
  let s = (value.length > max * 8 ? value.slice(0, max * 8) : value).replace(CONTROL, '').replace(/\s+/g, ' ').trim();
  if (s.length > max) {
    s = s.slice(0, max);
    if (/[\ud800-\udbff]$/.test(s)) s = s.slice(0, -1);
    s = s.trimEnd();
  }
  return s === '' ? undefined : s;
}

function firstText(max: number, ...values: (string | undefined)[]): string | undefined {
  for (const v of values) {
    const t = cleanText(v, max);
    if (t !== undefined) return t;
  }
  return undefined;
}

function firstOf(parse: (v: string) => string | undefined, ...values: (string | undefined)[]): string | undefined {
  for (const v of values) {
    if (v === undefined) continue;
    const parsed = parse(v);
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

const hasToken = (list: string | null, token: string) => list !== null && list.toLowerCase().split(/\s+/).includes(token);

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

// ---- language ----

/** A BCP 47 tag as pages write it: the first of a list, `en_US` read as `en-US`; undefined unless it looks like one. */
export function languageTag(value: string): string | undefined {
  const first = value.split(',', 1)[0]!.trim().replace(/_/g, '-');
  if (first.length > 35 || !/^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i.test(first)) return undefined;
  // Case as BCP 47 recommends: language lower, region upper, script title case.
  return first
    .split('-')
    .map((part, i) => {
      if (i === 0) return part.toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4 && /^[a-z]+$/i.test(part)) return part[0]!.toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}

// ---- dates ----

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const RFC_2822 = /^(?:[a-z]{3},?\s+)?\d{1,2}\s+[a-z]{3}\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s*(?:gmt|ut|utc|z|[+-]\d{4})$/i;

/**
 * A stated date as ISO 8601, or undefined when it does not parse. A date alone stays a date
 * (`2024-03-05`); a time with an offset (or an RFC 2822 date) becomes UTC (`2024-03-05T08:20:30Z`);
 * a time without one stays the page's local time, without an invented zone (`2024-03-05T10:20:30`).
 */
export function normalizeDate(value: string): string | undefined {
  const v = value.trim();
  if (v.length > 64) return undefined;
  const m = ISO.exec(v);
  if (m) {
    const [, y, mo, d, h, mi, s, frac, zone] = m;
    if (!validDate(+y!, +mo!, +d!)) return undefined;
    const date = `${y}-${mo}-${d}`;
    if (h === undefined) return date;
    if (+h! > 23 || +mi! > 59 || +(s ?? 0) > 59) return undefined;
    const ms = frac ? `.${frac.padEnd(3, '0').slice(0, 3)}` : '';
    const local = `${date}T${h}:${mi}:${s ?? '00'}${ms}`;
    if (zone === undefined) return local;
    const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
    if (offset !== 'Z' && (+offset.slice(1, 3) > 23 || +offset.slice(4, 6) > 59)) return undefined;
    return utc(Date.parse(`${local}${offset}`));
  }
  if (RFC_2822.test(v)) return utc(Date.parse(v));
  return undefined;
}

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1000 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function utc(ms: number): string | undefined {
  if (!Number.isFinite(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  return iso.startsWith('-') || iso.startsWith('+') ? undefined : iso.replace('.000Z', 'Z');
}

/**
 * A <time datetime> that is clearly the article's: the page has one <article>, and that article has
 * one dated <time> (or, among several, exactly one in its <header>). Anything else (comment dates,
 * related-post lists) is not the page's date.
 */
function articleTime(articles: Element[]): string | undefined {
  if (articles.length !== 1) return undefined;
  const times = descendants(articles[0]!).filter((el) => tagOf(el) === 'time' && el.hasAttribute('datetime'));
  if (times.length === 1) return times[0]!.getAttribute('datetime') ?? undefined;
  const inHeader = times.filter((t) => {
    for (let p = t.parentElement; p && p !== articles[0]; p = p.parentElement) if (tagOf(p) === 'header') return true;
    return false;
  });
  return inHeader.length === 1 ? (inHeader[0]!.getAttribute('datetime') ?? undefined) : undefined;
}

// ---- URLs ----

function baseUrl(baseHref: string | undefined, pageUrl: string | undefined): string | undefined {
  const page = pageUrl && /^https?:/i.test(pageUrl) ? pageUrl : undefined;
  if (baseHref !== undefined) {
    const resolved = resolveUrl(baseHref, page);
    if (resolved && /^https?:/i.test(resolved)) return resolved;
  }
  return page;
}

/** `value` resolved against `base`, when it is an http(s) URL of at most MAX_URL_CHARS; serialized by WHATWG rules. */
function absoluteHttpUrl(value: string, base: string | undefined, dropFragment: boolean): string | undefined {
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

// ---- JSON-LD ----

interface LdFacts {
  headline?: string;
  description?: string;
  datePublished?: string;
  dateModified?: string;
  siteName?: string;
}

const MAX_LD_NODES = 5_000;
const ARTICLE_TYPES = new Set([
  'Article', 'NewsArticle', 'BlogPosting', 'TechArticle', 'ScholarlyArticle', 'Report', 'LiveBlogPosting',
  'AnalysisNewsArticle', 'OpinionNewsArticle', 'ReportageNewsArticle', 'ReviewNewsArticle', 'SocialMediaPosting',
  'DiscussionForumPosting', 'Review', 'Recipe', 'VideoObject', 'Product', 'Question', 'Event', 'JobPosting',
]);
const PAGE_TYPES = new Set(['WebPage', 'ItemPage', 'AboutPage', 'ProfilePage', 'QAPage', 'FAQPage', 'CollectionPage', 'MedicalWebPage']);

const typesOf = (node: Record<string, unknown>): string[] =>
  ([] as unknown[])
    .concat(node['@type'] ?? [])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.replace(/^.*[/:]/, ''));

/**
 * The page's own entities are the top-level ones (each block, array item, `@graph` item) and their
 * `mainEntity`: an article's nested comments or a list's items carry dates that are not the page's.
 * Among them an article-like entity speaks first, then a WebPage; the site's name comes from a
 * WebSite entity or the main entity's publisher (also by `@id` reference).
 */
function readJsonLd(blocks: readonly unknown[]): LdFacts {
  const top: Record<string, unknown>[] = [];
  const byId = new Map<string, Record<string, unknown>>();
  let budget = MAX_LD_NODES;
  const addTop = (v: unknown, depth: number): void => {
    if (budget <= 0 || depth > 4) return;
    if (Array.isArray(v)) {
      for (const x of v) addTop(x, depth + 1);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    budget--;
    const node = v as Record<string, unknown>;
    if (typeof node['@id'] === 'string' && !byId.has(node['@id'])) byId.set(node['@id'], node);
    if (node['@graph'] !== undefined) addTop(node['@graph'], depth + 1);
    if (node['@type'] !== undefined) top.push(node);
    for (const key of ['mainEntity', 'mainEntityOfPage']) {
      const main = node[key];
      if (main !== null && typeof main === 'object') addTop(main, depth + 1);
    }
  };
  for (const block of blocks) addTop(block, 0);

  const deref = (v: unknown): Record<string, unknown> | undefined => {
    const first = Array.isArray(v) ? v[0] : v;
    if (first === null || typeof first !== 'object') return undefined;
    const node = first as Record<string, unknown>;
    const id = node['@id'];
    return typeof id === 'string' && Object.keys(node).length === 1 ? (byId.get(id) ?? node) : node;
  };
  const ranked = [
    ...top.filter((n) => typesOf(n).some((t) => ARTICLE_TYPES.has(t))),
    ...top.filter((n) => typesOf(n).some((t) => PAGE_TYPES.has(t))),
  ];
  const str = (v: unknown): string | undefined => {
    const first = Array.isArray(v) ? v[0] : v;
    return typeof first === 'string' ? decodeEntities(first) : undefined;
  };
  const field = (key: string) => {
    for (const n of ranked) {
      const v = str(n[key]);
      if (v !== undefined && v.trim() !== '') return v;
    }
    return undefined;
  };
  const facts: LdFacts = {};
  const set = (key: keyof LdFacts, v: string | undefined) => {
    if (v !== undefined) facts[key] = v;
  };
  set('headline', field('headline') ?? field('name'));
  set('description', field('description'));
  set('datePublished', field('datePublished') ?? field('uploadDate'));
  set('dateModified', field('dateModified'));
  const website = top.find((n) => typesOf(n).includes('WebSite'));
  let siteName = website ? str(website['name']) : undefined;
  for (const n of ranked) {
    if (siteName !== undefined) break;
    const publisher = deref(n['publisher']);
    if (publisher) siteName = str(publisher['name']);
  }
  set('siteName', siteName);
  return facts;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** JSON-LD strings sometimes carry HTML entities and tags; keep their text. */
function decodeEntities(s: string): string {
  if (!s.includes('&') && !s.includes('<')) return s;
  return s.replace(/<[^>]{0,200}>/g, ' ').replace(/&(#?[a-z0-9]+);/gi, (whole, name: string) => ENTITIES[name.toLowerCase()] ?? whole);
}

// ---- feeds ----

/** What an RSS/RDF or Atom feed states: its title, and its language (RSS <language>, RDF dc:language, Atom xml:lang). */
export function feedMetadata(root: Element | null, kind: XmlKind, contentLanguage?: string): PageMetadata {
  const metadata: PageMetadata = {};
  if (root === null || (kind !== 'rss' && kind !== 'atom')) {
    const language = contentLanguage === undefined ? undefined : languageTag(contentLanguage);
    return language === undefined ? metadata : { language };
  }
  const local = (el: Element) => (el.localName ?? el.tagName).replace(/^.*:/, '').toLowerCase();
  const child = (el: Element, name: string) => {
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (local(c) === name) return c;
    return undefined;
  };
  const channel = kind === 'rss' ? (child(root, 'channel') ?? root) : root;
  const title = cleanText(child(channel, 'title')?.textContent ?? undefined, MAX_TITLE_CHARS);
  if (title !== undefined) metadata.title = title;
  const description = cleanText(child(channel, kind === 'rss' ? 'description' : 'subtitle')?.textContent ?? undefined, MAX_DESCRIPTION_CHARS);
  if (description !== undefined) metadata.description = description;
  const language = firstOf(
    languageTag,
    child(channel, 'language')?.textContent ?? undefined,
    root.getAttribute('xml:lang') ?? undefined,
    contentLanguage,
  );
  if (language !== undefined) metadata.language = language;
  return metadata;
}
