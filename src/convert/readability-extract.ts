// Readability, returning the article element itself rather than serialized HTML, so nothing is
// parsed twice. It rewrites the tree it reads: callers hand it a document they no longer need.

import { Readability } from '@mozilla/readability';

export interface ReadabilityArticle {
  title: string;
  content: Element;
  textLength: number;
}

/** Consumes `doc`. */
export function runReadability(doc: Document): ReadabilityArticle | null {
  let article: ReturnType<Readability<Element>['parse']>;
  try {
    article = new Readability<Element>(doc, {
      charThreshold: 500,
      // Classes stay so the widget hints of boilerplate.ts can be applied to the article too.
      keepClasses: true,
      serializer: (node) => node as Element,
    }).parse();
  } catch {
    // Readability has known crashes on unusual DOMs; the caller falls back to the cleaned body.
    return null;
  }
  if (!article?.content) return null;
  return {
    title: article.title ?? '',
    content: article.content,
    textLength: (article.textContent ?? '').replace(/\s+/g, ' ').trim().length,
  };
}
