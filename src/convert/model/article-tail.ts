// Articles after the classifier (adjustStory): the classifier, taught by forums and listings to
// keep repeated posts and link lists, keeps them on articles too. Page evidence only, never a URL
// or a site, and threads (QAPage, DiscussionForumPosting, Question in JSON-LD) are left alone:
// - on any other page, short lines that send the reader elsewhere ("Read also:", "Mehr zum
//   Thema"), comment-form and rating lines, lone photo credits and calls to subscribe or donate go;
// - on a page that says it is one story (JSON-LD Article type or og:type article, else the story
//   inside an <article>, an hAtom entry or Article microdata; not a list of such entries), around
//   the story — the smallest container around the largest kept block holding half of the kept
//   words — its lead (a standfirst named so) and the quotes it embeds are kept, and what follows
//   it goes: comment containers, sections under comment or related headings, closing widgets
//   (author box, tags, share bar).
// Linear: every walk up the tree is memoised per element. docs/conversion.md has the evidence.

import { NON_ARTICLE_TYPES, type StructuredData } from '../structured-data.js';
import type { BlockRows, ElementRecord } from './block-features.js';
import { namesTokens } from './class-tokens.js';
import { dropCommentThreads } from './comment-threads.js';
import { recordAncestorTest } from './record-walk.js';
import { dropSideLinks } from './side-links.js';
import { declaresStory, findStory, isEntry, type Story, sibling } from './story.js';
import { keepStoryArea } from './story-area.js';
import { dropReadAlso } from './story-lines.js';
import { dropLinkLines } from './story-links.js';
import { dropTitledSideLinks } from './titled-story.js';

/** Class/id words of a comment or reply container (several languages). */
const COMMENT_NAME =
  /(?:^|[-_\s])(comments?|comment-?list|commentlist|respond|replies|reply|kommentare?|commentaires?|comentarios?|komentarze|disqus)(?:[-_\s]|$)/i;

/** Headings that open a comment section or a related-content block. */
export const TAIL_HEADING = new RegExp(
  [
    // English
    String.raw`\b(comments?|replies|responses|leave a (reply|comment)|post a comment|join the discussion|related|similar (posts|articles|stories)|more from|more (stories|articles|news|posts|on this)|trending|must read|read (next|more|also)|recommended|popular|most (read|popular|viewed)|you (might|may) (also )?like|latest (posts|news|articles|stories)|also on|don't miss|top stories)\b`,
    // German, French, Spanish, Italian, Polish, Dutch, Portuguese
    String.raw`\b(kommentare?|kommentieren|mehr zum thema|mehr aus|weitere (artikel|beiträge|nachrichten|meldungen|themen)|verwandte|ähnliche|auch interessant|lesen sie auch|das könnte|meistgelesen|meist gelesen|empfehlungen|top themen)`,
    String.raw`\b(commentaires?|à lire aussi|a lire aussi|sur le même sujet|dans la même rubrique|articles similaires|lire aussi)\b`,
    String.raw`\b(comentarios?|relacionad[ao]s|te puede interesar|más noticias|lo más leído|noticias relacionadas|commenti|articoli correlati|leggi anche|komentarze|polecamy|czytaj (też|także|więcej)|zobacz (też|także)|gerelateerd|reacties|relacionados|leia também)`,
  ].join('|'),
  'i',
);

const THREAD_TYPES = new Set(['QAPage', 'DiscussionForumPosting', 'Question']);
const HEADING = /^h([1-6])$/;
/** A block of prose: this many words or more, few of them links. */
const PROSE_TOKENS = 12;

/** Adjusts `kept` (ids of kept blocks) around the page's story: its lead kept, its tail dropped. */
export function adjustStory(rows: BlockRows, kept: Set<number>, data: StructuredData): void {
  for (const t of data.types) if (THREAD_TYPES.has(t)) return;
  // Read-also lines are dropped on any page but a thread (a short line or a list of links that
  // sends the reader elsewhere is nobody's content).
  dropReadAlso(rows, kept);
  // Reader comments and side link lists are told from what follows or flanks the story, with or
  // without markup; removing them first keeps a long thread or sidebar from winning the story.
  const declared = declaresStory(data);
  const commented = dropCommentThreads(rows, kept, declared);
  dropSideLinks(rows, kept, commented || declared);
  dropTitledSideLinks(rows, kept, commented || declared); // links beside a short story under its title (titled-story.ts)
  keepStoryArea(rows, kept, commented || declared, declared); // the story's Readability-style area (story-area.ts)
  const s = findStory(rows, kept);
  if (!s) return;
  if (!declared) for (const t of data.types) if (NON_ARTICLE_TYPES.has(t)) return;
  // A list of posts (a category or archive page, og:type article or not) is no story: the
  // <article> around the largest kept block has <article> siblings.
  const own = s.chain.find(isEntry);
  if (own && (sibling(own, -1) || sibling(own, 1))) return;
  // Without a declaration, the story must sit in an <article>.
  if (!declared && !s.chain.slice(s.story).some(isEntry)) return;
  keepLead(rows, kept, s);
  keepStoryQuotes(rows, kept, s);
  dropArticleTail(rows, kept, declared, s);
  dropLinkLines(rows, kept, s);
}

/** Removes from `kept` the ids of comment and related blocks after the story's end. */
function dropArticleTail(rows: BlockRows, kept: Set<number>, declared: boolean, s: Story): void {
  const blocks = rows.blocks;
  if (blocks.length === 0) return;
  const { chain, chainIndex, story, rowLca, end } = s;
  const storyEl = chain[story]!;
  if (commentContainer(storyEl)) return;
  // Without a declaration, a block inside an <article> of its own (a thread's post, a comment
  // marked up as one) is not judged here.
  // Walks over the rows' records (record-walk.ts), up to the chain, which holds body.
  const onChain = (a: ElementRecord) => chainIndex.has(a.el);
  const inOwnArticle = recordAncestorTest(rows, (a) => a.el.localName === 'article', onChain);

  // Comment containers between a block and the story's ancestors.
  const inComments = recordAncestorTest(rows, (a) => namesComment(a.cls, a.id), onChain);

  // Inside the story's container, its prose ends at the last kept paragraph of prose: what follows
  // there under a comment or related heading is a tail too (a "Related" list inside the container).
  let proseEnd = -1;
  for (let r = end; r >= 0; r--) {
    const b = blocks[r]!;
    if (kept.has(b.id) && rowLca[r]! <= story && b.tokens >= PROSE_TOKENS && b.linkTokens < 0.3 * b.tokens) {
      proseEnd = r;
      break;
    }
  }
  // Widgets that close a story (author box, tags, categories, share and rating bars, the entry's
  // meta line), like the comment containers.
  const inTailWidget = recordAncestorTest(rows, (a) => namesTokens(a.cls, a.id).some((t) => TAIL_WIDGET_WORDS.has(t)), onChain);
  let tailLevel = 0; // > 0: inside a tail section opened by a heading of this level
  for (let r = Math.max(0, proseEnd + 1); r < blocks.length; r++) {
    const b = blocks[r]!;
    const inStory = rowLca[r]! <= story;
    const level = Number(HEADING.exec(b.el.localName)?.[1] ?? 0);
    if (level > 0) {
      if (TAIL_HEADING.test(b.text)) tailLevel = tailLevel > 0 ? Math.min(tailLevel, level) : level;
      else if (tailLevel > 0 && level <= tailLevel) tailLevel = 0;
    }
    // Inside the story's container such a section is its links: text that is not a link, past the
    // heading itself, is the story going on (a table, a paragraph after a "Related" box).
    if (inStory && tailLevel > 0 && level === 0 && b.tokens >= 3 && b.linkTokens < 0.5 * b.tokens) tailLevel = 0;
    if (!kept.has(b.id)) continue;
    const tail = tailLevel > 0 || (!inStory && inComments(b.el)) || inTailWidget(b.el);
    if (tail && (declared || !inOwnArticle(b.el))) kept.delete(b.id);
  }
}

/** Class/id words of the widgets after a story's prose: author box, tags, meta line, share bar. */
const TAIL_WIDGET_WORDS = new Set([
  'author',
  'authors',
  'autor',
  'autoren',
  'byline',
  'bio',
  'saboxplugin',
  'tags',
  'tagged',
  'tagcloud',
  'keywords',
  'schlagworte',
  'utility',
  'postmetadata',
  'entryfooter',
  'meta',
  'share',
  'sharing',
  'sharedaddy',
  'social',
  'rating',
  'likes',
  'newsletter',
  'subscribe',
  'related',
  'promo',
]);

/** Class/id words of a story's lead (standfirst, deck, excerpt) in several languages. */
const LEAD_WORDS = new Set([
  'lead',
  'lede',
  'leadin',
  'intro',
  'introduction',
  'excerpt',
  'standfirst',
  'subtitle',
  'subheadline',
  'subline',
  'deck',
  'dek',
  'abstract',
  'teasertext',
  'vorspann',
  'bajada',
  'entradilla',
  'sumario',
  'sapo',
  'chapeau',
  'chapo',
  'occhiello',
  'leader',
]);
/** How many rows before the story's first kept row a lead may sit. */
const LEAD_REACH = 12;
const MIN_LEAD_TOKENS = 6;
/** A lead is prose: it ends a sentence. A byline ("By … on 19 December") is metadata, not a lead. */
const SENTENCE_END = /[.!?…:"”»)]$/;
const BYLINE = /^(by|von|par|por|di|door|przez)\s/i;

/**
 * The story's lead (a standfirst, a deck under the headline) is the story's first paragraph: a
 * dropped block with a sentence's worth of words, few of them links, just before the story (or at
 * its top) whose element or a near ancestor names a lead in its class or id, is kept.
 */
function keepLead(rows: BlockRows, kept: Set<number>, s: Story): void {
  const blocks = rows.blocks;
  if (s.start < 0) return;
  for (let r = Math.max(0, s.start - LEAD_REACH); r < Math.min(blocks.length, s.start + 3); r++) {
    const b = blocks[r]!;
    if (kept.has(b.id) || b.tokens < MIN_LEAD_TOKENS || b.linkTokens > 0.3 * b.tokens) continue;
    const text = b.text.trim();
    if (!SENTENCE_END.test(text) || BYLINE.test(text)) continue;
    let lead = false;
    for (let a: ElementRecord | null = rows.names.get(b.el)!, up = 0; a && up < 4 && !s.chainIndex.has(a.el); a = a.up, up++) {
      const tag = a.el.localName;
      if (tag === 'figure' || tag === 'figcaption') break; // a caption, not a lead
      if (namesTokens(a.cls, a.id).some((t) => LEAD_WORDS.has(t))) {
        lead = true;
        break;
      }
    }
    if (lead) kept.add(b.id);
  }
}

/**
 * Quotes the story embeds (a <blockquote>: a quoted tweet or post, a pull quote) between its first
 * and last kept blocks, inside its container, are the story's: kept when mostly text, not links.
 * (Keeping every dropped block there was measured: it kept as many captions, credits and promos
 * as it recovered text.)
 */
function keepStoryQuotes(rows: BlockRows, kept: Set<number>, s: Story): void {
  const blocks = rows.blocks;
  for (let r = s.start + 1; r < s.end; r++) {
    const b = blocks[r]!;
    if (kept.has(b.id) || s.rowLca[r]! > s.story || b.tokens < QUOTE_TOKENS || b.linkTokens >= 0.5 * b.tokens) continue;
    for (let a: ElementRecord | null = rows.names.get(b.el)!, up = 0; a && up < 4 && !s.chainIndex.has(a.el); a = a.up, up++) {
      if (a.el.localName === 'blockquote') {
        kept.add(b.id);
        break;
      }
    }
  }
}
const QUOTE_TOKENS = 3;

function commentContainer(el: Element): boolean {
  return namesComment(el.getAttribute('class') ?? '', el.getAttribute('id') ?? '');
}

/** Class and id (getAttribute's, '' when absent) name a comment container. */
function namesComment(cls: string, id: string): boolean {
  const names = `${cls} ${id}`;
  return names.length > 1 && COMMENT_NAME.test(names);
}
