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

import type { BlockRows } from './block-features.js';
import { classTokens } from './class-tokens.js';
import { countWords } from './text-stats.js';
import { dropLinkLines } from './story-links.js';
import { declaresArticle, type StructuredData } from '../structured-data.js';

/** Class/id words of a comment or reply container (several languages). */
const COMMENT_NAME = /(?:^|[-_\s])(comments?|comment-?list|commentlist|respond|replies|reply|kommentare?|commentaires?|comentarios?|komentarze|disqus)(?:[-_\s]|$)/i;

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

/** The story on the page: the smallest container around the largest kept block with half the kept words. */
export interface Story {
  /** The largest kept block's ancestors, innermost first, and their indexes. */
  chain: Element[];
  chainIndex: Map<Element, number>;
  /** Index in `chain` of the story's container. */
  story: number;
  /** Per row: index in `chain` of the row's lowest common ancestor with the largest kept block. */
  rowLca: Int32Array;
  /** First and last kept rows inside the story. */
  start: number;
  end: number;
}

export function findStory(rows: BlockRows, kept: ReadonlySet<number>): Story | null {
  const blocks = rows.blocks;
  let total = 0;
  let largest = -1;
  blocks.forEach((b, r) => {
    if (!kept.has(b.id)) return;
    total += b.tokens;
    if (largest < 0 || b.tokens > blocks[largest]!.tokens) largest = r;
  });
  if (largest < 0) return null;
  // Each block's lowest common ancestor with the largest kept block, memoised per element so the
  // walks up are linear in the page.
  const chain: Element[] = [];
  const chainIndex = new Map<Element, number>();
  for (let e: Element | null = blocks[largest]!.el; e; e = e.parentElement) {
    chainIndex.set(e, chain.length);
    chain.push(e);
  }
  const lcaMemo = new Map<Element, number>();
  const lca = (el: Element): number => {
    const walked: Element[] = [];
    let e: Element | null = el;
    let found = chain.length - 1;
    while (e) {
      const direct = chainIndex.get(e) ?? lcaMemo.get(e);
      if (direct !== undefined) {
        found = direct;
        break;
      }
      walked.push(e);
      e = e.parentElement;
    }
    for (const w of walked) lcaMemo.set(w, found);
    return found;
  };
  const within = new Float64Array(chain.length);
  const rowLca = new Int32Array(blocks.length);
  blocks.forEach((b, r) => {
    const i = lca(b.el);
    rowLca[r] = i;
    if (kept.has(b.id)) within[i] = within[i]! + b.tokens;
  });
  let story = 0;
  for (let acc = 0; story < chain.length - 1; story++) {
    acc += within[story]!;
    if (acc >= 0.5 * total) break;
  }
  let start = -1;
  let end = -1;
  blocks.forEach((b, r) => {
    if (kept.has(b.id) && rowLca[r]! <= story) {
      if (start < 0) start = r;
      end = r;
    }
  });
  return { chain, chainIndex, story, rowLca, start, end };
}

/** Adjusts `kept` (ids of kept blocks) around the page's story: its lead kept, its tail dropped. */
export function adjustStory(rows: BlockRows, kept: Set<number>, data: StructuredData): void {
  for (const t of data.types) if (THREAD_TYPES.has(t)) return;
  // Read-also lines are dropped on any page but a thread (a short line or a list of links that
  // sends the reader elsewhere is nobody's content).
  dropReadAlso(rows, kept);
  const s = findStory(rows, kept);
  if (!s) return;
  const declared = declaresStory(data);
  if (!declared) for (const t of data.types) if (NOT_STORY.has(t)) return;
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
  const articleMemo = new Map<Element, boolean>();
  const inOwnArticle = (el: Element): boolean => {
    const walked: Element[] = [];
    let result = false;
    for (let e: Element | null = el; e && !chainIndex.has(e); e = e.parentElement) {
      const m = articleMemo.get(e);
      if (m !== undefined) {
        result = m;
        break;
      }
      walked.push(e);
      if (e.localName === 'article') {
        result = true;
        break;
      }
    }
    for (const w of walked) articleMemo.set(w, result);
    return result;
  };

  // Comment containers between a block and the story's ancestors, memoised per element.
  const commentMemo = new Map<Element, boolean>();
  const inComments = (el: Element): boolean => {
    const walked: Element[] = [];
    let result = false;
    for (let e: Element | null = el; e && !chainIndex.has(e); e = e.parentElement) {
      const m = commentMemo.get(e);
      if (m !== undefined) {
        result = m;
        break;
      }
      walked.push(e);
      if (commentContainer(e)) {
        result = true;
        break;
      }
    }
    for (const w of walked) commentMemo.set(w, result);
    return result;
  };

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
  // meta line), memoised per element like the comment containers.
  const widgetMemo = new Map<Element, boolean>();
  const inTailWidget = (el: Element): boolean => {
    const walked: Element[] = [];
    let result = false;
    for (let e: Element | null = el; e && !chainIndex.has(e); e = e.parentElement) {
      const m = widgetMemo.get(e);
      if (m !== undefined) {
        result = m;
        break;
      }
      walked.push(e);
      if (classTokens(e).some((t) => TAIL_WIDGET_WORDS.has(t))) {
        result = true;
        break;
      }
    }
    for (const w of walked) widgetMemo.set(w, result);
    return result;
  };
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
  'author', 'authors', 'autor', 'autoren', 'byline', 'bio', 'saboxplugin', 'tags', 'tagged', 'tagcloud', 'keywords',
  'schlagworte', 'utility', 'postmetadata', 'entryfooter', 'meta', 'share', 'sharing', 'sharedaddy',
  'social', 'rating', 'likes', 'newsletter', 'subscribe', 'related', 'promo',
]);

/** Class/id words of a story's lead (standfirst, deck, excerpt) in several languages. */
const LEAD_WORDS = new Set([
  'lead', 'lede', 'leadin', 'intro', 'introduction', 'excerpt', 'standfirst', 'subtitle', 'subheadline', 'subline',
  'deck', 'dek', 'abstract', 'teasertext', 'vorspann', 'bajada', 'entradilla', 'sumario', 'sapo', 'chapeau', 'chapo', 'occhiello', 'leader',
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
    for (let e: Element | null = b.el, up = 0; e && up < 4 && !s.chainIndex.has(e); e = e.parentElement, up++) {
      if (e.localName === 'figure' || e.localName === 'figcaption') break; // a caption, not a lead
      if (classTokens(e).some((t) => LEAD_WORDS.has(t))) {
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
    for (let e: Element | null = b.el, up = 0; e && up < 4 && !s.chainIndex.has(e); e = e.parentElement, up++) {
      if (e.localName === 'blockquote') {
        kept.add(b.id);
        break;
      }
    }
  }
}
const QUOTE_TOKENS = 3;

/** A line that sends the reader to other stories ("Read also:", "Mehr zum Thema", "Czytaj też"). */
const READ_ALSO = new RegExp(
  '^[\\s"“„«]*(' +
    [
      String.raw`read (also|more|next)|also read|see also|related( (stories|articles|posts|content|reading|coverage))?|more (on|about) this|more from|recommended( (stories|articles|reading))?|you (might|may) also like|most (read|popular)`,
      String.raw`lesen sie (auch|hier|mehr)|lesenswert|mehr (zum thema|zu[mr]? |aus |dazu)|zum weiterlesen|weiterlesen|schon gelesen|das (thema )?könnte (dich|sie) auch interessieren|auch interessant|auch auf |weitere (artikel|beiträge|nachrichten|meldungen|infos|informationen)|weiterführende (informationen|links|artikel)|ähnliche (artikel|beiträge|nachrichten)|beliebte (artikel|beiträge)|aktuelle berichte|meistgelesen|empfehlungen|lust auf mehr`,
      String.raw`à lire aussi|a lire aussi|lire aussi|voir aussi|sur le même sujet|articles les plus lus|les plus lus`,
      String.raw`le puede interesar|te puede interesar|puedes ver|vea también|lee también|lea también|leer más|notas relacionadas|noticias relacionadas|leia também|leggi anche|czytaj (też|także|więcej|również)|zobacz (też|także|również)|dowiedz się więcej|polecamy|mire:`,
    ].join('|') +
    ')',
  'i',
);
/** A short line about the comment form or a rating widget: "Leave a comment", "Kommentare geschlossen". */
const COMMENT_LINE = new RegExp(
  '^[\\s(]*(' +
    [
      String.raw`(leave|post|write|add) a (reply|comment)|comments? (are )?closed|no comments( yet)?|comment by|be the first to comment|rate this|(noch )?keine (kommentare|bewertungen)|bisher keine kommentare`,
      String.raw`kommentar(e)? (schreiben|verfassen|geschlossen)|kommentieren|bewerten:|wie bewerten sie|laisser un commentaire|deja un comentario|dodaj komentarz`,
    ].join('|') +
    ')',
  'i',
);
/** A photo credit alone on its line ("Foto: …", "Crédits photos : …"): the picture's, not the story's. */
const CREDIT_LINE = /^[\s(]*(fotos?|photos?|bild|kuva|cr[ée]dits?( photos?)?|credit|image|imagen|zdj[eę]cie|fot\.)\s*[:©]/i;
/** A call to subscribe, follow, donate or come back ("Subscribe now to our …", "Unterstütze …"). */
const PROMO_LINE = new RegExp(
  '^[\\s"“„«¿¡]*(' +
    [
      String.raw`subscribe (now|today|to)|to (view|read) the full (story|article)|first-time subscribers|for the latest (stories|news|updates)|follow (us|the \S+|[\w.]+) on (twitter|facebook|instagram)|if you (enjoyed|liked) (reading )?this|sign up (now |today )?for our|support (us|our journalism)`,
      String.raw`unterstütze|unterstützen sie (uns|unsere)|jede (kleine )?spende|gefällt (dir|ihnen) unser|besuchen sie unseren|abonniere|abonnieren sie|ya sabías que|suscríbete|abonnez-vous|soutenez`,
    ].join('|') +
    ')',
  'i',
);
/** A promotion line is at most this long (a paragraph that starts alike is left to the model). */
const PROMO_WORDS = 30;
/** Control and credit lines are this short. */
const CONTROL_WORDS = 6;

/** A read-also line is short, or the rest of it is links (the stories it points to). */
const READ_ALSO_WORDS = 8;

/**
 * Lines that point to other stories, inside or beside the story ("LE PUEDE INTERESAR: …",
 * "Zum Weiterlesen:", a "Weitere Artikel" heading): dropped when short or mostly links.
 */
function dropReadAlso(rows: BlockRows, kept: Set<number>): void {
  for (const b of rows.blocks) {
    if (!kept.has(b.id)) continue;
    if ((b.tokens <= CONTROL_WORDS && (COMMENT_LINE.test(b.text) || CREDIT_LINE.test(b.text))) || (b.tokens <= PROMO_WORDS && PROMO_LINE.test(b.text))) {
      kept.delete(b.id);
      continue;
    }
    const m = READ_ALSO.exec(b.text);
    if (!m) continue;
    const short = b.tokens <= READ_ALSO_WORDS;
    const rest = countWords(b.text.slice(m[0].length), true);
    if (short || b.linkTokens >= 0.5 * rest) kept.delete(b.id);
  }
}

/**
 * An element that marks one entry: an <article>, a microformats `hentry`, or schema.org microdata of
 * an Article or BlogPosting (`itemtype`) or its body (`itemprop="articleBody"`).
 */
function isEntry(e: Element): boolean {
  if (e.localName === 'article') return true;
  const cls = e.getAttribute('class');
  if (cls !== null && /(?:^|\s)hentry(?:\s|$)/.test(cls)) return true;
  const type = e.getAttribute('itemtype');
  if (type !== null && /schema\.org\/\w*(Article|BlogPosting)\b/i.test(type)) return true;
  return /^(articleBody|blogPost)$/.test(e.getAttribute('itemprop') ?? '');
}

/** The nearest entry sibling of `el` before (-1) or after (1) it, within a few elements. */
function sibling(el: Element, dir: -1 | 1): boolean {
  let e: Element | null = el;
  for (let i = 0; i < 3; i++) {
    e = dir < 0 ? e.previousElementSibling : e.nextElementSibling;
    if (!e) return false;
    if (isEntry(e)) return true;
  }
  return false;
}

function commentContainer(el: Element): boolean {
  const names = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
  return names.length > 1 && COMMENT_NAME.test(names);
}

/**
 * The page says it is one story: JSON-LD declares an Article (NewsArticle, BlogPosting…) and no
 * many-item type, or Open Graph's `og:type` is `article` and JSON-LD declares nothing else.
 */
export function declaresStory(data: StructuredData): boolean {
  if (declaresArticle(data)) return true;
  for (const t of data.types) if (NOT_STORY.has(t)) return false;
  return /^article\b/.test(data.openGraphType);
}

const NOT_STORY = new Set(['Product', 'ProductGroup', 'Offer', 'AggregateOffer', 'ItemList', 'CollectionPage', 'SearchResultsPage', 'Recipe', 'Event', 'JobPosting', 'QAPage', 'DiscussionForumPosting', 'Question']);
