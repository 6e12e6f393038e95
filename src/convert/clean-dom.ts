// DOM clean-up before extraction: what no reader ever sees (scripts, styles, aria-hidden
// decoration, screen-reader-only text, SVG, the words behind icon-font glyphs), and
// the test for page chrome (navigation, header, footer, sidebars, forms) used by convert/model/boilerplate.ts.

import { descendants, tagOf } from './dom-utils.js';
import { type AttributePair, nodeListLinks, readAttributePair } from './linkedom-reads.js';
import { DROPPED_TAGS } from './markdown/index.js';
import { flattenShadowRoots } from './shadow-dom.js';
import { memoByValue } from './value-memo.js';

/** Screen-reader-only text: read aloud, never shown, so never part of what a reader sees. */
const SCREEN_READER_ONLY =
  /(?:^|\s)(?:sr-only|screen-reader-text|screen-reader-only|visually-hidden|visuallyhidden|element-invisible|skip-link|skip-to-content)(?:\s|$)/i;

/**
 * Icon fonts draw a glyph from a ligature word ("chevron_right", "check", "close"): the reader sees
 * an arrow, never the word. Material's classes name the font; any other element named an icon
 * counts when its whole text is one such lower-case word. A check mark says something (a feature
 * table's "included"): it becomes ✓; every other glyph goes.
 */
const CHECK_MARK = /^\s*(?:check|done|check_circle|task_alt|check_box)\s*$/;
const ICON_FONT = /(?:^|\s)(?:material-(?:icons|symbols)(?:-[a-z]+)?|google-symbols)(?:\s|$)/;
const ICON_CLASS = /(?:^|[\s_-])icons?(?:[\s_-]|$)/i;
const LIGATURE = /^\s*[a-z]+(?:_[a-z]+)*\s*$/;

/** An element named an icon (ICON_CLASS) is a glyph when its whole text is one ligature word. */
function isLigature(el: Element): boolean {
  return el.childElementCount === 0 && LIGATURE.test(el.textContent ?? '');
}

/** Fewer words inside <noscript> than this make a notice, never the page. */
const NOTICE_WORDS = 25;

const wordCount = (el: Element) => (el.textContent ?? '').match(/\w+/g)?.length ?? 0;

/**
 * Script-rendered pages (Discourse forums, some shops) serve their whole content to readers
 * without JavaScript inside <noscript>. When <noscript> holds more words than the rest of the
 * page, it *is* the page: unwrap it. Otherwise it is a "please enable JavaScript" notice — also
 * when it is the only text of an empty shell: a sentence is not a page (the pages unwrapped on
 * WCXB dev hold 331 words and more; the notices, one line).
 */
function unwrapContentNoscript(root: ParentNode, all: readonly Element[]): boolean {
  // Outermost ones still in the tree (a <template>'s, already removed, do not count).
  const noscripts = all.filter((n) => tagOf(n) === 'noscript' && !n.parentElement?.closest('noscript, template'));
  if (noscripts.length === 0) return false;
  const inside = noscripts.reduce((sum, n) => sum + wordCount(n), 0);
  const body = (root as Document).body ?? (root as Element).ownerDocument?.body ?? (root as Element);
  if (inside < NOTICE_WORDS || inside <= wordCount(body) - inside) return false;
  // A <noscript> in <head> holding page content is body content to a browser without scripts.
  const bodyStart = body.firstChild;
  for (const n of noscripts) {
    const children = Array.from(n.childNodes);
    if (n.closest('head') && body !== n.parentElement) {
      n.remove();
      for (const c of children) body.insertBefore(c, bodyStart);
    } else n.replaceWith(...children);
  }
  return true;
}

// What a class value says to the clean-up, decided once per distinct value (class values repeat
// across a page's elements, and the three regexes ran on every classed element).
const NO_HINT = 0;
const SCREEN_READER = 1;
const ICON_FONT_HINT = 2;
/** Named an icon: a glyph only when the element's whole text is one ligature word. */
const ICON_NAMED = 3;
const classHint = memoByValue((cls) =>
  SCREEN_READER_ONLY.test(cls) ? SCREEN_READER : ICON_FONT.test(cls) ? ICON_FONT_HINT : ICON_CLASS.test(cls) ? ICON_NAMED : NO_HINT,
);

const SCRIPT_TAGS = new Set(['script', 'style', 'template']);
const INVISIBLE_TAGS = new Set<string>([...DROPPED_TAGS, 'math', 'link', 'meta']);

/**
 * Removes invisible and non-content elements in place. One walk collects every element (linkedom's
 * querySelectorAll re-matches the whole tree per selector); removing an element already detached
 * with an ancestor is a no-op, so the passes below equal the selector-by-selector version.
 * `all`, when given, must be descendants(root). Returns the elements left below `root`, in document
 * order (what descendants would walk again), or undefined when the clean-up moved any (unwrapped
 * <noscript>, flattened shadow roots).
 */
export function removeInvisible(root: ParentNode, all: readonly Element[] = descendants(root)): Element[] | undefined {
  // Before templates go: a declarative shadow root is rendered content.
  let moved = flattenShadowRoots(all);
  // Elements this function detached, and those below them (`all` is in document order, so a parent
  // is met before its children): nothing below is read again, so what the loop would do there
  // (remove, replace, read text) changes nothing, and is skipped (a template's or an SVG's markup).
  const gone = new Set<Element>();
  for (const el of all)
    if (SCRIPT_TAGS.has(tagOf(el))) {
      el.remove();
      gone.add(el);
    }
  if (unwrapContentNoscript(root, all)) moved = true;
  const left: Element[] = [];
  const links = nodeListLinks();
  const pair: AttributePair = [null, null];
  for (const el of all) {
    // parentNode, not the parentElement getter: they differ only above the root, which is never gone.
    const parent = el.parentNode;
    if (parent !== null && gone.has(parent as Element)) {
      gone.add(el);
      continue;
    }
    if (INVISIBLE_TAGS.has(tagOf(el))) {
      el.remove();
      gone.add(el);
      continue;
    }
    // Collapsed content (tabs, accordions, "read more" sections: `hidden`, `display:none`) is kept:
    // it is part of the page a reader opens, and measured on WCXB dev-train keeping it scored higher
    // (+0.005 F1, service and listing most). `aria-hidden` marks decoration and duplicates: dropped.
    let ariaHidden: string | null;
    let cls: string | null;
    if (links) {
      // Both attributes from one walk over the element's attribute nodes. The class as written: the
      // parser spelled it as getAttribute reads it, and a hint is the same for any spelling of the same
      // class words (classHint's patterns match whole words).
      [ariaHidden, cls] = readAttributePair(el, links, 'aria-hidden', 'class', pair);
    } else {
      ariaHidden = el.getAttribute('aria-hidden');
      cls = el.getAttribute('class');
    }
    if (ariaHidden === 'true') {
      el.remove();
      gone.add(el);
    } else {
      const hint = cls ? classHint(cls) : NO_HINT;
      if (hint === SCREEN_READER) {
        el.remove();
        gone.add(el);
      } else if (hint === ICON_FONT_HINT || (hint === ICON_NAMED && isLigature(el))) {
        if (CHECK_MARK.test(el.textContent ?? '')) el.replaceWith(el.ownerDocument.createTextNode('✓'));
        else el.remove();
        gone.add(el);
      } else left.push(el);
    }
  }
  return moved ? undefined : left;
}

/** Page chrome that is never main content: these elements, and these ARIA landmark roles. */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'form']);
export const CHROME_ROLES: ReadonlySet<string> = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
]);

/** Tested per element (a selector would make linkedom re-compile and re-match per call). `role`: el's, when read already. */
export function isChrome(el: Element, role: string | null = el.getAttribute('role')): boolean {
  return CHROME_TAGS.has(tagOf(el)) || CHROME_ROLES.has(role ?? '');
}
