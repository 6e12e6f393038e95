// Reader comments after a story, on any page (issue 31): half of the comment pages of a 2012 blog and
// news set declare no story at all (no og:type, JSON-LD, <article> or hentry), so the tail rule of
// article-tail.ts, which needs that evidence, never fired, and comments that outweighed the story also
// moved the story's container onto them. A kept block inside a container whose class or id names
// comments or replies (`comments`, `commentlist`, `comment-body`, `disqus_thread`, `respond`…) goes
// when the page's story — its largest kept block of prose outside any such container — comes
// before it. Not on threads (their replies are the content; the caller checks the JSON-LD), and
// not when the container holds the page's title (`<h1>`: a wrapper, not a thread) or its name only
// states the comments' state (`comments-open`, `has-comments`: a body class), not under a forum's,
// discussion's, testimonials' or reviews' names, and, on a page that declares no story, not for a
// post in an <article> of its own (a link aggregator's replies, og:type website).
// Runs before the story is found, so a long thread no longer wins the story's container.
// Linear: the nearest comment container is memoised per element.

import type { BlockRows, ElementRecord } from './block-features.js';
import { namesTokens } from './class-tokens.js';
import { isTitleHeading } from './titled-story.js';

/**
 * Class/id words of a comment container (several languages). Not "reply": forums name their posts
 * so (`forum-post-reply`, `h-reply-post-box`). The joined forms (`commentbody`, `commentform`) are
 * a comment's parts on older blog engines; not `commentary` (an opinion section is a story).
 */
const COMMENT_NAME =
  /(?:^|[-_\s])(comments?|comment-?list|commentlist|comment(?:body|text|entry|content|form|author|meta)|respond|kommentare?|commentaires?|comentarios?|komentarze|disqus|dsq)(?:[-_\s]|$)/i;
/**
 * Class/id words of a thread's or a shop's posts named comments: forum boards, discussions,
 * testimonials, reviews (whole words: WordPress marks every comment `thread-odd`).
 */
const THREAD_WORDS = new Set([
  'forum',
  'forums',
  'discussion',
  'discussions',
  'board',
  'topic',
  'topics',
  'testimonial',
  'testimonials',
  'review',
  'reviews',
]);
/** A name that states whether comments are open, not a container of them (a body or entry class). */
const COMMENT_STATE =
  /(?:^|[-_\s])(?:(?:has|no|with|allow|enable)[-_]?comments?|comments?[-_](?:open|closed|enabled|disabled|allowed|on|off))(?:[-_\s]|$)/gi;
/** A block of prose: this many words or more, few of them links. */
const PROSE_TOKENS = 12;

/** The element's id unless it is many words (a heading's slug, "receive-and-reply-to-a-comment"). */
function shortId(id: string): string {
  return id !== '' && id.split(/[-_]/).filter((w) => !/^\d*$/.test(w)).length <= 3 ? id : '';
}

/**
 * Whether the element's class or short id names comments, once the names of comments' state are
 * blanked. Class and id are asked apart first (no name spans the space that joins them), and
 * blanking can only take a name away (a state name starts and ends at a word's edge): most elements
 * are answered without a string joined or blanked.
 */
function namesComments(cls: string, id: string): boolean {
  if (!COMMENT_NAME.test(cls) && !COMMENT_NAME.test(id)) return false;
  return COMMENT_NAME.test(`${cls} ${id}`.replace(COMMENT_STATE, ' '));
}

/** Removes from `kept` the comment blocks after the page's story; true when the page has such a thread. */
export function dropCommentThreads(rows: BlockRows, kept: Set<number>, declared: boolean): boolean {
  const blocks = rows.blocks;
  // Containers that hold a title are wrappers of the story, not threads.
  const holdsTitle = new Set<Element>();
  for (const b of blocks) {
    if (b.el.localName !== 'h1') continue;
    for (let e: Element | null = b.el; e && !holdsTitle.has(e); e = e.parentElement) holdsTitle.add(e);
  }
  // Per element: its nearest comment container (null when none, or when it sits in a thread's
  // board, discussion, testimonials or reviews, whose posts are content), resolved top-down along
  // each walk so every element is visited once. The walks go over the elements' records
  // (BlockRows.names: every row's element and its ancestors up to body; body and <html> above it name
  // nothing here), the facts kept by record number.
  // `entry`: an <article> at or below the comment container (a post marked up as an entry of its own).
  const names = rows.names;
  const commentOf = new Array<Element | null>(names.size).fill(null);
  const THREAD = 1;
  const ENTRY = 2;
  const KNOWN = 4;
  const flags = new Uint8Array(names.size);
  const walked: ElementRecord[] = [];
  const nearest = (el: Element): Element | null => {
    let a: ElementRecord | null = names.get(el)!;
    for (; a && flags[a.index] === 0; a = a.up) walked.push(a);
    let comment = a ? commentOf[a.index]! : null;
    let f = a ? flags[a.index]! : 0;
    for (let i = walked.length - 1; i >= 0; i--) {
      const w = walked[i]!;
      const tag = w.el.localName;
      const named = tag !== 'body' && tag !== 'html';
      const cls = named ? w.cls : '';
      const id = named ? shortId(w.id) : '';
      const some = cls !== '' || id !== '';
      const thread = (f & THREAD) !== 0 || (some && namesTokens(w.cls, w.id).some((t) => THREAD_WORDS.has(t)));
      comment = thread ? null : (comment ?? (some && !holdsTitle.has(w.el) && namesComments(cls, id) ? w.el : null));
      f = KNOWN | (thread ? THREAD : 0) | (comment !== null && ((f & ENTRY) !== 0 || tag === 'article') ? ENTRY : 0);
      commentOf[w.index] = comment;
      flags[w.index] = f;
    }
    walked.length = 0;
    // Without a declared story, a post in an <article> of its own is a thread's (a link aggregator's
    // replies), not judged here.
    return (f & ENTRY) !== 0 && !declared ? null : comment;
  };
  const container = blocks.map((b) => (kept.has(b.id) ? nearest(b.el) : null));
  let story = -1;
  blocks.forEach((b, r) => {
    if (!kept.has(b.id) || container[r] || b.tokens < PROSE_TOKENS || b.linkTokens >= 0.3 * b.tokens) return;
    if (story < 0 || b.tokens > blocks[story]!.tokens) story = r;
  });
  // A photo or video post has no prose before its comments (or less than one comment's worth): its
  // title heading (every word in the document's <title>, outside the thread) starts the story then.
  const title = container.findIndex((c, r) => !c && kept.has(blocks[r]!.id) && isTitleHeading(rows, r));
  if (title >= 0 && (story < 0 || title < story)) story = title;
  if (story < 0) return false;
  let thread = false;
  for (let r = story + 1; r < blocks.length; r++) {
    if (!container[r]) continue;
    kept.delete(blocks[r]!.id);
    thread = true;
  }
  return thread;
}
