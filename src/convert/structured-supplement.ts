// Structured data as content where the DOM hides it: forum posts and answers kept only in
// QAPage / DiscussionForumPosting JSON-LD (collapsed, paginated or script-rendered in the page),
// product descriptions kept in a tab or only in the Product block, an article's body or a
// recipe's ingredients and steps that a script renders. A text is appended only when most of its
// words are missing from the extracted Markdown, so nothing is repeated.

import { wordsOf } from './model/index.js';
import type { StructuredData } from './structured-data.js';

/** A structured text is "missing" when fewer than this share of its words appear in the output. */
const PRESENT_SHARE = 0.5;
/** Texts shorter than this many words are labels, not content. */
const MIN_WORDS = 8;

export function supplementFromStructuredData(markdown: string, data: StructuredData): string {
  const candidates = [...data.postTexts, ...data.productDescriptions, ...data.articleBodies, ...data.recipes];
  if (candidates.length === 0) return markdown;
  const present = new Set(wordsOf(markdown));
  const additions: string[] = [];
  const seen = new Set<string>();
  for (const text of candidates) {
    const words = wordsOf(text);
    if (words.length < MIN_WORDS || seen.has(text)) continue;
    seen.add(text);
    const found = words.filter((w) => present.has(w)).length;
    if (found < PRESENT_SHARE * words.length) {
      additions.push(text);
      for (const w of words) present.add(w);
    }
  }
  return additions.length === 0 ? markdown : [markdown, ...additions].filter((s) => s !== '').join('\n\n');
}
