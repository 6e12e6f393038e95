// The pages of the three corpora as the conversion benches read them ($WCXB_DIR, $TRAFILATURA_DIR,
// $ARTICLES_DIR): WCXB dev, trafilatura-eval (a page that is not UTF-8 decoded by the charset it
// declares) and articles-dev, each page with its corpus, id and URL.

import { articlesAvailable, loadArticlesIndex, loadArticlesPage } from './articles-data.js';
import { loadTrafilaturaHtml, loadTrafilaturaIndex, trafilaturaAvailable } from './trafilatura-data.js';
import { loadIndex, loadPage, wcxbAvailable } from './wcxb-data.js';

export type CorpusName = 'wcxb' | 'traf' | 'articles';
export const CORPORA: CorpusName[] = ['wcxb', 'traf', 'articles'];

export interface CorpusPage {
  corpus: CorpusName;
  id: string;
  url: string | undefined;
  html: string;
}

export function* corpusPages(which: readonly CorpusName[] = CORPORA): Generator<CorpusPage> {
  if (which.includes('wcxb') && wcxbAvailable())
    for (const e of loadIndex()) yield { corpus: 'wcxb', id: `wcxb:${e.id}`, url: e.url, html: loadPage(e).html };
  if (which.includes('traf') && trafilaturaAvailable())
    for (const e of loadTrafilaturaIndex()) yield { corpus: 'traf', id: `traf:${e.id}`, url: e.url, html: loadTrafilaturaHtml(e) };
  if (which.includes('articles') && articlesAvailable())
    for (const e of loadArticlesIndex()) yield { corpus: 'articles', id: `articles:${e.id}`, url: e.url, html: loadArticlesPage(e).html };
}
