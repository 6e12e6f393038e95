// DOM clean-up shared by both extraction paths: what no reader ever sees (scripts, styles,
// aria-hidden decoration, screen-reader-only text, SVG, whose `className` is an object and
// crashes Readability, readability #742), and
// the selector of page chrome (navigation, header, footer, sidebars, forms) used by boilerplate.ts.

import { DROPPED_TAGS } from './turndown-service.js';
import { qsa } from './dom-utils.js';

function removeAll(root: ParentNode, selector: string): void {
  for (const el of qsa(root, selector)) el.remove();
}

/** Screen-reader-only text: read aloud, never shown, so never part of what a reader sees. */
const SCREEN_READER_ONLY = /(?:^|\s)(?:sr-only|screen-reader-text|screen-reader-only|visually-hidden|visuallyhidden|element-invisible|skip-link|skip-to-content)(?:\s|$)/i;

const wordCount = (el: Element) => (el.textContent ?? '').match(/\w+/g)?.length ?? 0;

/**
 * Script-rendered pages (Discourse forums, some shops) serve their whole content to readers
 * without JavaScript inside <noscript>. When <noscript> holds more words than the rest of the
 * page, it *is* the page: unwrap it. Otherwise it is a "please enable JavaScript" notice.
 */
function unwrapContentNoscript(root: ParentNode): void {
  const noscripts = qsa(root, 'noscript').filter((n) => !n.parentElement?.closest('noscript'));
  if (noscripts.length === 0) return;
  const inside = noscripts.reduce((sum, n) => sum + wordCount(n), 0);
  const body = (root as Document).body ?? (root as Element);
  if (inside <= wordCount(body) - inside) return;
  for (const n of noscripts) n.replaceWith(...Array.from(n.childNodes));
}

/** Removes invisible and non-content elements in place. */
export function removeInvisible(root: ParentNode): void {
  for (const el of qsa(root, 'script, style, template')) el.remove();
  unwrapContentNoscript(root);
  removeAll(root, [...DROPPED_TAGS, 'math', 'link', 'meta'].join(','));
  // Collapsed content (tabs, accordions, "read more" sections: `hidden`, `display:none`) is kept:
  // it is part of the page a reader opens, and measured on WCXB dev-train keeping it scored higher
  // (+0.005 F1, service and listing most). `aria-hidden` marks decoration and duplicates: dropped.
  removeAll(root, '[aria-hidden="true"]');
  for (const el of qsa(root, '[class]')) {
    if (SCREEN_READER_ONLY.test(el.getAttribute('class') ?? '')) el.remove();
  }
}

/** Page chrome that is never main content. */
export const CHROME_SELECTOR = [
  'nav', 'header', 'footer', 'aside', 'form',
  '[role="navigation"]', '[role="banner"]', '[role="contentinfo"]', '[role="complementary"]',
  '[role="search"]', '[role="dialog"]', '[role="alertdialog"]', '[role="menu"]', '[role="menubar"]',
].join(',');
