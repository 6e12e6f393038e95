// JSON-LD read as evidence of what a page is (an Article, a Product, a forum thread…) and as
// content the DOM may hide (a product description kept in a tab or only in the data block).
// Read before scripts are stripped; malformed blocks are skipped, never fatal.

import { descendants, tagOf } from './dom-utils.js';

export interface StructuredData {
  /** Every schema.org `@type` seen, without namespace. */
  types: Set<string>;
  /** Plain-text descriptions of Product entities. */
  productDescriptions: string[];
  /** Post texts of Question, Answer, Comment and DiscussionForumPosting entities, in document order. */
  postTexts: string[];
}

const POST_TYPES = new Set(['Question', 'Answer', 'Comment', 'DiscussionForumPosting', 'SocialMediaPosting']);
const MAX_JSONLD_CHARS = 1_000_000;
const MAX_NODES = 5_000;

export function readStructuredData(doc: Document): StructuredData {
  const data: StructuredData = { types: new Set(), productDescriptions: [], postTexts: [] };
  for (const script of descendants(doc)) {
    if (tagOf(script) !== 'script' || !isJsonLd(script.getAttribute('type'))) continue;
    const text = script.textContent ?? '';
    if (text.length > MAX_JSONLD_CHARS) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    walk(parsed, data);
  }
  return data;
}

/** `[type="application/ld+json"]`: `type` is one of the attributes CSS matches case-insensitively in HTML. */
const isJsonLd = (type: string | null) => type !== null && type.toLowerCase() === 'application/ld+json';

function walk(root: unknown, data: StructuredData): void {
  const stack: unknown[] = [root];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_NODES) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const obj = node as Record<string, unknown>;
    const types = ([] as unknown[]).concat(obj['@type'] ?? []).filter((t): t is string => typeof t === 'string');
    for (const t of types) data.types.add(t.replace(/^.*[/:]/, ''));
    if (types.some((t) => /(^|[/:])Product$/.test(t)) && typeof obj['description'] === 'string') {
      const desc = htmlToText(obj['description']);
      if (desc.length > 0) data.productDescriptions.push(desc);
    }
    if (types.some((t) => POST_TYPES.has(t.replace(/^.*[/:]/, '')))) {
      const text = typeof obj['text'] === 'string' ? obj['text'] : typeof obj['articleBody'] === 'string' ? obj['articleBody'] : '';
      const clean = htmlToText(text);
      if (clean.length > 0) data.postTexts.push(clean);
    }
    // Children in reverse so the stack pops them in document order.
    const children = Object.values(obj).filter((v) => v !== null && typeof v === 'object');
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/** Descriptions sometimes carry HTML tags and entities; keep their text only. */
function htmlToText(s: string): string {
  return s
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

const ARTICLE_TYPES = new Set(['Article', 'NewsArticle', 'BlogPosting', 'TechArticle', 'ScholarlyArticle', 'Report', 'LiveBlogPosting']);
const NON_ARTICLE_TYPES = new Set([
  'Product', 'ProductGroup', 'Offer', 'AggregateOffer', 'QAPage', 'Question', 'DiscussionForumPosting',
  'ItemList', 'CollectionPage', 'SearchResultsPage', 'Recipe', 'Event', 'JobPosting',
]);

/** The page declares itself a single article and nothing that holds many items. */
export function declaresArticle(data: StructuredData): boolean {
  let article = false;
  for (const t of data.types) {
    if (NON_ARTICLE_TYPES.has(t)) return false;
    if (ARTICLE_TYPES.has(t)) article = true;
  }
  return article;
}

