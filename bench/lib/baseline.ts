// The reference point of issue 3/7: plain Readability on linkedom, its HTML through turndown with
// the GFM plugin, default options otherwise — what a user wiring the three libraries would get.
// That user has stock linkedom, so the baseline parses with linkedom's CommonJS build: a module
// instance of its own, which the lazy-listener change websift makes to the ESM instance it imports
// (src/convert/lazy-listeners.ts) does not reach. Checked at load: a baseline sped up by websift's
// change would hide the change from every ratio.

import { createRequire } from 'node:module';
import { Readability } from '@mozilla/readability';
import * as esmLinkedom from 'linkedom';
import TurndownService from 'turndown';
// @ts-expect-error turndown-plugin-gfm ships no type declarations
import { gfm } from 'turndown-plugin-gfm';

const stock = createRequire(import.meta.url)('linkedom') as typeof esmLinkedom;
if (stock.EventTarget === esmLinkedom.EventTarget) throw new Error("the baseline shares websift's linkedom instance");
/** linkedom's parseHTML, never patched by websift. */
export const stockParseHTML = stock.parseHTML;
{
  // A stock Node still runs EventTarget's constructor (builds its listener Map).
  const { document } = stockParseHTML('<p>x</p>');
  let c: unknown = document.constructor;
  while (c && Object.getPrototypeOf(c) !== stock.EventTarget && c !== Function.prototype) c = Object.getPrototypeOf(c);
  if (Object.getPrototypeOf(c) !== stock.EventTarget) throw new Error('the baseline linkedom is not stock');
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
turndown.use(gfm as TurndownService.Plugin);

export function plainReadabilityMarkdown(html: string): string {
  try {
    const { document } = stockParseHTML(html);
    const article = new Readability(document as unknown as Document).parse();
    return article?.content ? turndown.turndown(article.content) : '';
  } catch {
    return '';
  }
}
