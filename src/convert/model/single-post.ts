// One post's body on a page (issue 31): blog engines print a post's text in an element named for it
// (`entry-content`, `entry-body`, `post-body`, `post-content`…). A page with exactly one such
// element (the outermost of nested ones) shows one post; a blog's front or archive page shows many.
// Half of the 2012 blog pages say nothing else (no og:type, JSON-LD, <article> or hentry), and many
// of their posts are a photo and a line: too little prose for side-links.ts to find a story by. The
// post's element is the story there, whatever its length; links-only lists outside it (blogrolls,
// archives, "recent posts") are the blog's, not the post's.

import { memoByValue } from '../value-memo.js';
import type { ElementNames } from './block-features.js';
import type { Block } from './blocks.js';

/** Class or id names of one post's body, as blog engines print them (case, `-` and `_` aside). */
const BODY_NAMES = new Set(['entrycontent', 'entrybody', 'postbody', 'postcontent', 'postentry', 'articlebody', 'storybody']);

// Class and id values repeat across a page's elements (every block's ancestors are asked): each
// distinct one is split once. Class and id are looked up apart, not joined: a joined string is a new
// one per element, hashed anew on every look-up.
// Whole names only: `sticky-post__content` is a teaser's part on a listing, not a post's body.
// One regex per new value (a name's letters with `-`/`_` allowed around each, a whitespace-separated
// word whole): splitting, stripping and lower-casing each word was most of this rule's garbage.
const BODY_NAME = new RegExp(`(?:^|\\s)[-_]*(?:${[...BODY_NAMES].map((n) => n.split('').join('[-_]*')).join('|')})[-_]*(?=\\s|$)`, 'i');
const namedBody = memoByValue((value) => BODY_NAME.test(value));
// Ids do not repeat (one element each): remembering them only filled the memo. An id is tested as
// it is, and only when long enough to hold a name.
const MIN_NAME = Math.min(...[...BODY_NAMES].map((n) => n.length));
const idNamesBody = (id: string) => id.length >= MIN_NAME && BODY_NAME.test(id);

function namesPostBody(el: Element): boolean {
  const cls = el.getAttribute('class');
  if (cls && namedBody(cls)) return true;
  const id = el.getAttribute('id');
  return !!id && idNamesBody(id);
}

const namesBody = (n: ElementNames) => (n.cls !== '' && namedBody(n.cls)) || (n.id !== '' && idNamesBody(n.id));

/**
 * The single post body among `blocks`' ancestors: the one outermost element whose class or id names
 * a post's body, or null when there is none or more than one (a list of posts). Linear: each walk up
 * stops at an element already seen. `names`: the class and id of every element on the blocks' walks up
 * to body (BlockRows.names, the features' snapshot), read there instead of walking; the elements above
 * body are read here.
 */
export function singlePostBody(blocks: readonly Block[], names?: ReadonlyMap<Element, ElementNames>): Element | null {
  const bodies: Element[] = [];
  if (names && blocks.length > 0) {
    // forEach: a for-of over the entries makes an [element, names] pair per element.
    names.forEach((n, e) => {
      if (namesBody(n)) bodies.push(e);
    });
    let e: Element | null = blocks[0]!.el;
    while (e && names.has(e)) e = e.parentElement;
    for (; e; e = e.parentElement) if (namesPostBody(e)) bodies.push(e);
  } else {
    const seen = new Set<Element>();
    for (const b of blocks) {
      for (let e: Element | null = b.el; e && !seen.has(e); e = e.parentElement) {
        seen.add(e);
        if (namesPostBody(e)) bodies.push(e);
      }
    }
  }
  // One body (or none) is the outermost; the Set below is for the many-bodies case.
  if (bodies.length <= 1) return bodies[0] ?? null;
  const named = new Set(bodies);
  let outermost: Element | null = null;
  for (const body of bodies) {
    let inner = false;
    for (let e = body.parentElement; e && !inner; e = e.parentElement) inner = named.has(e);
    if (inner) continue;
    if (outermost) return null;
    outermost = body;
  }
  return outermost;
}
