// The reference point of issue 3/7: plain Readability on linkedom, its HTML through turndown with
// the GFM plugin, default options otherwise — what a user wiring the three libraries would get.

import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
// @ts-expect-error turndown-plugin-gfm ships no type declarations
import { gfm } from 'turndown-plugin-gfm';

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
turndown.use(gfm as TurndownService.Plugin);

export function plainReadabilityMarkdown(html: string): string {
  try {
    const { document } = parseHTML(html);
    const article = new Readability(document as unknown as Document).parse();
    return article?.content ? turndown.turndown(article.content) : '';
  } catch {
    return '';
  }
}
