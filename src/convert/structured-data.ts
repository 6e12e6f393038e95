// JSON-LD read as evidence of what a page is (an Article, a Product, a forum thread…) and as
// content the DOM may hide (a product description kept in a tab or only in the data block, an
// article body or a recipe a script renders). Read before scripts are stripped; malformed blocks
// are skipped, never fatal.

import { descendants, tagOf } from './dom-utils.js';
import { escapeMarkdownText } from './markdown/index.js';

export interface StructuredData {
  /** Every schema.org `@type` seen, without namespace. */
  types: Set<string>;
  /** Plain-text descriptions of Product entities. */
  productDescriptions: string[];
  /** Post texts of Question, Answer, Comment and DiscussionForumPosting entities, in document order. */
  postTexts: string[];
  /** Plain-text `articleBody` of Article entities (NewsArticle, BlogPosting…). */
  articleBodies: string[];
  /** Recipes as Markdown: their ingredients (a list) and instructions (numbered steps). */
  recipes: string[];
  /** Every JSON-LD block as parsed, in document order (metadata/json-ld.ts reads the page's dates and names from them). */
  jsonLd?: unknown[];
  /** Open Graph's `og:type` (`article`, `website`…), lower-cased; '' when the page sets none. */
  openGraphType: string;
}

const POST_TYPES = new Set(['Question', 'Answer', 'Comment', 'DiscussionForumPosting', 'SocialMediaPosting']);
const MAX_JSONLD_CHARS = 1_000_000;
const MAX_NODES = 5_000;

/** `all`, when given, must be descendants(doc). */
export function readStructuredData(doc: Document, all: readonly Element[] = descendants(doc)): StructuredData {
  const data: StructuredData = {
    types: new Set(),
    productDescriptions: [],
    postTexts: [],
    articleBodies: [],
    recipes: [],
    jsonLd: [],
    openGraphType: '',
  };
  for (const script of all) {
    const tag = tagOf(script);
    if (tag === 'meta' && data.openGraphType === '' && script.getAttribute('property')?.toLowerCase() === 'og:type') {
      data.openGraphType = (script.getAttribute('content') ?? '').trim().toLowerCase();
      continue;
    }
    if (tag !== 'script' || !isJsonLd(script.getAttribute('type'))) continue;
    const text = script.textContent ?? '';
    if (text.length > MAX_JSONLD_CHARS) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    data.jsonLd!.push(parsed);
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
    const types = ([] as unknown[])
      .concat(obj['@type'] ?? [])
      .filter((t): t is string => typeof t === 'string')
      .map((t) => t.replace(/^.*[/:]/, ''));
    for (const t of types) data.types.add(t);
    if (types.some((t) => ARTICLE_TYPES.has(t)) && typeof obj['articleBody'] === 'string') {
      const body = htmlToText(obj['articleBody']);
      if (body.length > 0) data.articleBodies.push(body);
    }
    if (types.includes('Recipe')) {
      const recipe = recipeMarkdown(obj);
      if (recipe) data.recipes.push(recipe);
    }
    if (types.includes('Product') && typeof obj['description'] === 'string') {
      const desc = htmlToText(obj['description']);
      if (desc.length > 0) data.productDescriptions.push(desc);
    }
    if (types.some((t) => POST_TYPES.has(t))) {
      const text = typeof obj['text'] === 'string' ? obj['text'] : typeof obj['articleBody'] === 'string' ? obj['articleBody'] : '';
      const clean = htmlToText(text);
      if (clean.length > 0) data.postTexts.push(clean);
    }
    // Children in reverse so the stack pops them in document order.
    const children = Object.values(obj).filter((v) => v !== null && typeof v === 'object');
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/** A Recipe's ingredients and steps (strings, HowToStep, HowToSection) as Markdown; '' without either. */
function recipeMarkdown(recipe: Record<string, unknown>): string {
  const ingredients = plainTexts(recipe['recipeIngredient'] ?? recipe['ingredients']);
  const steps: string[] = [];
  let n = 0;
  const addSteps = (v: unknown, depth: number): void => {
    for (const step of ([] as unknown[]).concat(v ?? [])) {
      if (typeof step === 'string') for (const t of plainTexts(step)) steps.push(`${++n}. ${escapeMarkdownText(t)}`);
      else if (step && typeof step === 'object' && depth < 3) {
        const o = step as Record<string, unknown>;
        if (o['itemListElement'] !== undefined) {
          const name = plainTexts(o['name'])[0];
          if (name) steps.push(`### ${escapeMarkdownText(name)}`);
          addSteps(o['itemListElement'], depth + 1);
        } else {
          const text = plainTexts(o['text'] ?? o['name'])[0];
          if (text) steps.push(`${++n}. ${escapeMarkdownText(text)}`);
        }
      }
    }
  };
  addSteps(recipe['recipeInstructions'], 0);
  const parts: string[] = [];
  if (ingredients.length > 0) parts.push('## Ingredients', ingredients.map((t) => `- ${escapeMarkdownText(t)}`).join('\n'));
  if (steps.length > 0)
    parts.push(
      '## Instructions',
      steps
        .join('\n')
        .replace(/\n?(### .*)\n?/g, '\n\n$1\n\n')
        .trim(),
    );
  return parts.join('\n\n');
}

/** The non-empty plain texts of a string or an array of them. */
const plainTexts = (v: unknown): string[] =>
  ([] as unknown[])
    .concat(v ?? [])
    .flatMap((x) => (typeof x === 'string' ? [htmlToText(x)] : []))
    .filter((t) => t !== '');

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
/** Types of a page that holds many items or is not one article (a shop, a thread, a list). */
export const NON_ARTICLE_TYPES = new Set([
  'Product',
  'ProductGroup',
  'Offer',
  'AggregateOffer',
  'QAPage',
  'Question',
  'DiscussionForumPosting',
  'ItemList',
  'CollectionPage',
  'SearchResultsPage',
  'Recipe',
  'Event',
  'JobPosting',
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

/**
 * The page offers a product for sale: a Product or ProductGroup with an Offer or AggregateOffer, and
 * no Article type (a news story's paywall markup declares its subscription as a Product on offer).
 */
export function offersProduct(data: StructuredData): boolean {
  const t = data.types;
  for (const x of t) if (ARTICLE_TYPES.has(x)) return false;
  return (t.has('Product') || t.has('ProductGroup')) && (t.has('Offer') || t.has('AggregateOffer'));
}
