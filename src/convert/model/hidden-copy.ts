// A second, hidden copy of text the page already shows (issue 20): a `display:none` or `hidden`
// block holding the article body again (a copy for structured data, a print or mobile duplicate)
// would be printed after the visible story. Collapsed content is kept on purpose (tabs, accordions:
// clean-dom.ts), so only a hidden block whose whole text is already in the kept visible blocks goes.
// Linear: the walk up to a hidden ancestor is memoised per element, and the visible text is joined
// once, only when a kept block is hidden.

import { memoizedAncestorTest } from '../dom-utils.js';
import { type AttributePair, htmlAttributeLinks, readAttributePair } from '../linkedom-reads.js';
import type { Block } from './blocks.js';

const DISPLAY_NONE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b/i;

function hiddenHere(e: Element): boolean {
  if (e.hasAttribute('hidden')) return true;
  const style = e.getAttribute('style');
  return style !== null && DISPLAY_NONE.test(style);
}

/**
 * hiddenHere from one walk over the element's attribute nodes (`links`: htmlAttributeLinks), where
 * hasAttribute and getAttribute each walked them: a `hidden` attribute, or the first `style` hiding it.
 */
function hiddenByAttributes(e: Element, links: { readonly next: symbol }, pair: AttributePair): boolean {
  const [hidden, style] = readAttributePair(e, links, 'hidden', 'style', pair);
  return hidden !== null || (style !== null && DISPLAY_NONE.test(style));
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** RDFa's attributes, and the prefixes (`xmlns:dc`, `xmlns:foaf`) a block of RDFa declares. */
const RDFA = new Set(['typeof', 'property', 'vocab', 'prefix', 'about']);

/** Microdata (an item or a value) or RDFa. */
function structured(e: Element): boolean {
  if (e.hasAttribute('itemscope') || e.hasAttribute('itemprop')) return true;
  for (const a of Array.from(e.attributes)) if (RDFA.has(a.name) || a.name.startsWith('xmlns:')) return true;
  return false;
}

const VALUE = '[itemprop], [property], [typeof]';
const words = (t: string | null) => (t ?? '').split(/\s+/).filter(Boolean).length;

/** A block whose words are mostly structured values inside it (a `<span property>` in a `<div>`). */
function holdsData(el: Element): boolean {
  let inValues = 0;
  for (const d of Array.from(el.querySelectorAll(VALUE))) {
    const outer = d.parentElement?.closest(VALUE);
    if (!outer || !el.contains(outer)) inValues += words(d.textContent); // outermost values only
  }
  return inValues > 0 && inValues >= 0.5 * words(el.textContent);
}

/** A question-and-answer item: its collapsed answers are the page's content, not a copy for machines. */
const QA_TYPE = /schema\.org\/(?:Question|Answer|FAQPage)\b/i;

/**
 * Removes from `kept` the hidden blocks whose text the kept visible blocks already hold, and every
 * hidden block of structured data (issue 31): a `display:none` microdata item (`itemscope`), a
 * hidden microdata value (`itemprop`) or hidden RDFa (`property`, `typeof`, prefixes declared with
 * `xmlns:`) is written for machines — a second copy of the body with its date, image sizes,
 * publisher and keywords — whether or not its text is shown elsewhere. Not a question's collapsed
 * answer (FAQ markup): that is what the reader opens.
 */
export function dropHiddenCopies(blocks: readonly Block[], kept: Set<number>): void {
  const links = htmlAttributeLinks(blocks[0]?.el.ownerDocument);
  const pair: AttributePair = [null, null];
  const hidden = memoizedAncestorTest(links ? (e) => hiddenByAttributes(e, links, pair) : hiddenHere);
  const inQa = memoizedAncestorTest((e) => QA_TYPE.test(e.getAttribute('itemtype') ?? ''));
  // Structured data that is hidden, by its own style or a hidden block around it (a display:none
  // block declaring RDFa prefixes around a title, description and image of the story).
  const hiddenData = memoizedAncestorTest((e) => structured(e) && hidden(e) && !inQa(e));
  const copies: Block[] = [];
  const shown: Block[] = [];
  for (const b of blocks) {
    if (!kept.has(b.id) || b.tokens === 0) continue;
    if (!hidden(b.el)) shown.push(b);
    else if (hiddenData(b.el) || (!inQa(b.el) && holdsData(b.el))) kept.delete(b.id);
    else copies.push(b);
  }
  // The visible text is collapsed only on a page with a hidden copy (few do): one string per kept
  // block was a share of the rules' garbage.
  if (copies.length === 0) return;
  const visible = ` ${shown.map((b) => collapse(b.text)).join(' ')} `;
  for (const b of copies) {
    const text = collapse(b.text);
    if (text !== '' && visible.includes(text)) kept.delete(b.id);
  }
}
