// Chooses the element whose Markdown is the page's main content. Two candidates:
//  - Readability's article: best on single-article pages;
//  - the page's <main> (else its body) with boilerplate removed: it keeps what Readability drops
//    on pages of many items (forum posts, cards, service sections, product specifications).
// Readability wins unless the cleaned candidate holds clearly more text (tuning.expandRatio) and the
// page does not declare itself a single Article in its structured data. Tuned on WCXB dev-train.

import { dominantContainer, removeBoilerplate } from './boilerplate.js';
import { MAX_READABILITY_ELEMENTS } from './dom-guard.js';
import { descendants, hasText, tagOf } from './dom-utils.js';
import { runReadability } from './readability-extract.js';
import { countWords, wordsIn } from './text-stats.js';
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
  /**
   * Readability reads the cleaned page unless clean-up removed more than this share of its words:
   * then the clean-up misread the page (a product grid of short links looks like a menu) and
   * Readability gets the untouched page instead.
   */
  minKeptShare: 0.2,
};
/** A <main> element is used only when it holds at least this much text. */
const MIN_MAIN_CHARS = 200;

export type MainContentSource = 'readability' | 'cleaned-main' | 'cleaned-body' | 'body';

export interface MainContent {
  element: Element;
  source: MainContentSource;
  /** Readability's article, when it ran and found one (evidence for the block classifier). */
  article?: Element;
  /** The whole cleaned page the cleaned candidate came from, when clean-up ran. */
  cleaned?: Element;
}

const words = (el: Element) => countWords(el.textContent ?? '');

/**
 * Consumes `doc`. Pages declaring a single Article: Readability runs on the prepared page, and its
 * article wins whenever it exists. Other pages: boilerplate is removed from `doc` in place, the
 * cleaned candidate is a copy of that body, and Readability runs on the cleaned page too — half the
 * tree for it to score, the same F1 (docs/benchmarks.md, step 5) — unless clean-up removed nearly
 * everything (tuning.minKeptShare). `fresh` returns a new, identically prepared document: the
 * untouched page, for the few pages that need it after `doc` has been changed.
 */
export function selectMainContent(doc: Document, elements: number, data: StructuredData, fresh: () => Document): MainContent {
  const useReadability = elements <= MAX_READABILITY_ELEMENTS;
  let cleaned: MainContent | undefined;
  if (!useReadability || !declaresArticle(data)) {
    const before = removeBoilerplate(doc.body);
    cleaned = cleanedFrom(doc.body.cloneNode(true) as Element, () => fresh().body);
    if (useReadability && wordsIn(doc.body) < tuning.minKeptShare * before) doc = fresh();
  }
  const article = useReadability ? runReadability(doc) : null;
  if (!article || article.textLength < MIN_ARTICLE_CHARS) return cleaned ?? cleanedCandidate(fresh());
  if (tuning.cleanArticle) removeBoilerplate(article.content, { chrome: false });
  const chosen: MainContent = { element: article.content, source: 'readability', article: article.content };
  if (!cleaned) return chosen;
  if (words(cleaned.element) >= tuning.expandRatio * Math.max(1, words(article.content))) return { ...cleaned, article: article.content };
  return cleaned.cleaned ? { ...chosen, cleaned: cleaned.cleaned } : chosen;
}

/** The page without chrome and widgets: its <main> when that holds real text, else the body. Copies. */
export function cleanedCandidate(doc: Document): MainContent {
  const body = doc.body.cloneNode(true) as Element;
  removeBoilerplate(body);
  return cleanedFrom(body, () => doc.body.cloneNode(true) as Element);
}

/** `body`: a copy of the page's body already without boilerplate; `whole`: an untouched one. */
function cleanedFrom(body: Element, whole: () => Element): MainContent {
  const main = descendants(body).find((el) => tagOf(el) === 'main' || el.getAttribute('role') === 'main');
  if (main && (main.textContent ?? '').trim().length >= MIN_MAIN_CHARS) return { element: dominantContainer(main, tuning.dominantShare), source: 'cleaned-main', cleaned: body };
  if (hasText(body)) return { element: dominantContainer(body, tuning.dominantShare), source: 'cleaned-body', cleaned: body };
  // Everything was chrome: better the whole page than nothing.
  return { element: whole(), source: 'body' };
}
