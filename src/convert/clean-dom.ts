// DOM clean-up shared by both extraction paths: what no reader ever sees (scripts, hidden
// elements, SVG, whose `className` is an object and crashes Readability, readability #742), and
// the selector of page chrome (navigation, header, footer, sidebars, forms) used by boilerplate.ts.

import { DROPPED_TAGS } from './turndown-service.js';
import { qsa } from './dom-utils.js';

function removeAll(root: ParentNode, selector: string): void {
  for (const el of qsa(root, selector)) el.remove();
}

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important)?\s*(?:;|$)/i;

/** Removes invisible and non-content elements in place. */
export function removeInvisible(root: ParentNode): void {
  removeAll(root, [...DROPPED_TAGS, 'math', 'link', 'meta'].join(','));
  removeAll(root, '[hidden], [aria-hidden="true"]');
  for (const el of qsa(root, '[style]')) {
    if (HIDDEN_STYLE.test(el.getAttribute('style') ?? '')) el.remove();
  }
}

/** Page chrome that is never main content. */
export const CHROME_SELECTOR = [
  'nav', 'header', 'footer', 'aside', 'form',
  '[role="navigation"]', '[role="banner"]', '[role="contentinfo"]', '[role="complementary"]',
  '[role="search"]', '[role="dialog"]', '[role="alertdialog"]', '[role="menu"]', '[role="menubar"]',
].join(',');
