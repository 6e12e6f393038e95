// A second, hidden copy of text the page already shows (issue 20): a `display:none` or `hidden`
// block holding the article body again (a copy for structured data, a print or mobile duplicate)
// would be printed after the visible story. Collapsed content is kept on purpose (tabs, accordions:
// clean-dom.ts), so only a hidden block whose whole text is already in the kept visible blocks goes.
// Linear: the walk up to a hidden ancestor is memoised per element, and the visible text is joined
// once, only when a kept block is hidden.

import { memoizedAncestorTest } from '../dom-utils.js';
import type { Block } from './blocks.js';

const DISPLAY_NONE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b/i;

function hiddenHere(e: Element): boolean {
  if (e.hasAttribute('hidden')) return true;
  const style = e.getAttribute('style');
  return style !== null && DISPLAY_NONE.test(style);
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

const structured = (e: Element) => e.hasAttribute('itemscope') || e.hasAttribute('itemprop');

/**
 * Removes from `kept` the hidden blocks whose text the kept visible blocks already hold, and every
 * hidden block of structured data (issue 31): a `display:none` microdata item (`itemscope`), or a
 * hidden microdata value (`itemprop`), is written for machines — a second copy of the body with its
 * date, image sizes, publisher and keywords — whether or not its text is shown elsewhere.
 */
export function dropHiddenCopies(blocks: readonly Block[], kept: Set<number>): void {
  const hidden = memoizedAncestorTest(hiddenHere);
  const hiddenData = memoizedAncestorTest((e) => hiddenHere(e) && structured(e));
  const copies: Block[] = [];
  const shown: string[] = [];
  for (const b of blocks) {
    if (!kept.has(b.id) || b.tokens === 0) continue;
    if (hidden(b.el) && (structured(b.el) || hiddenData(b.el))) kept.delete(b.id);
    else if (hidden(b.el)) copies.push(b);
    else shown.push(collapse(b.text));
  }
  if (copies.length === 0) return;
  const visible = ` ${shown.join(' ')} `;
  for (const b of copies) {
    const text = collapse(b.text);
    if (text !== '' && visible.includes(text)) kept.delete(b.id);
  }
}
