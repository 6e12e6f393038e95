// Chooses the element whose Markdown is the page's main content. Two candidates:
//  - Readability's article: best on single-article pages;
//  - the page's <main> (else its body) with boilerplate removed: it keeps what Readability drops
//    on pages of many items (forum posts, cards, service sections, product specifications).
// Readability wins unless the cleaned candidate holds clearly more text (tuning.expandRatio) and the
// page does not declare itself a single Article in its structured data. Tuned on WCXB dev-train.

import { dominantContainer, removeBoilerplate } from './boilerplate.js';
import { MAX_READABILITY_ELEMENTS } from './dom-guard.js';
import { runReadability } from './readability-extract.js';
import { countWords } from './text-stats.js';
import { declaresArticle, type StructuredData } from './structured-data.js';

/** Below this much article text, Readability is taken to have found no article. */
const MIN_ARTICLE_CHARS = 140;
/** Thresholds of the choice, in one place (tuned on WCXB dev-train; see docs/benchmarks.md). */
export const tuning = {
  /** The cleaned candidate replaces Readability when it has at least this many times its words. */
  expandRatio: 1.5,
  /** dominantContainer descends into a child holding at least this share of non-link words. */
  dominantShare: 0.85,
  /** Also strip widgets and link lists (pagination, tag lists) from Readability's article. */
  cleanArticle: true as boolean,
};
/** A <main> element is used only when it holds at least this much text. */
const MIN_MAIN_CHARS = 200;

export type MainContentSource = 'readability' | 'cleaned-main' | 'cleaned-body' | 'body';

export interface MainContent {
  element: Element;
  source: MainContentSource;
}

const words = (el: Element) => countWords(el.textContent ?? '');

/** Consumes `doc` (Readability rewrites it); the cleaned candidate is taken from a copy first. */
export function selectMainContent(doc: Document, elements: number, data: StructuredData): MainContent {
  const cleaned = cleanedCandidate(doc);
  const article = elements <= MAX_READABILITY_ELEMENTS ? runReadability(doc) : null;
  if (!article || article.textLength < MIN_ARTICLE_CHARS) return cleaned;
  if (tuning.cleanArticle) removeBoilerplate(article.content, { chrome: false });
  const articleWords = words(article.content);
  if (declaresArticle(data)) return { element: article.content, source: 'readability' };
  if (words(cleaned.element) >= tuning.expandRatio * Math.max(1, articleWords)) return cleaned;
  return { element: article.content, source: 'readability' };
}

/** The page without chrome and widgets: its <main> when that holds real text, else the body. */
export function cleanedCandidate(doc: Document): MainContent {
  const body = doc.body.cloneNode(true) as Element;
  removeBoilerplate(body);
  const main = body.querySelector('main, [role="main"]');
  if (main && (main.textContent ?? '').trim().length >= MIN_MAIN_CHARS) return { element: dominantContainer(main, tuning.dominantShare), source: 'cleaned-main' };
  if ((body.textContent ?? '').trim() !== '') return { element: dominantContainer(body, tuning.dominantShare), source: 'cleaned-body' };
  // Everything was chrome: better the whole page than nothing (a copy: Readability runs next).
  return { element: doc.body.cloneNode(true) as Element, source: 'body' };
}
