// Features of each text block for the block classifier (block-model.ts): the block's own text
// (length, link share, sentence shape, telling phrases), where it sits (landmarks, widget class
// names and the learned class/id lexicon, repeated siblings, the containers around it, the title),
// the page (structured data, size) and whether rule-based clean-up (boilerplate.ts) would drop it.
// The names are stored with the model, so a model trained on another feature list is refused
// rather than misread. One file and one walk on purpose: every feature is filled in the same pass over
// the elements (the conversion's hottest loop), so splitting it would mean walking the page again.

import { CHROME_ROLES } from '../clean-dom.js';
import { tagOf } from '../dom-utils.js';
import { elementNames, readNames } from '../linkedom-reads.js';
import { isSpace } from '../space.js';
import { declaresArticle, offersProduct, type StructuredData } from '../structured-data.js';
import {
  asciiWordKey,
  countBlockWords,
  duplicateCounts,
  inTable,
  KIND_DATE,
  KIND_LEGAL,
  KIND_META,
  KIND_PRICE,
  KIND_SOCIAL,
  keyed,
  lowerHashStep,
  newBlockWords,
  WORD_HASH_START,
  wordTable,
} from './block-words.js';
import type { Block } from './blocks.js';
import { classLikeBoilerplate, idLikeBoilerplate } from './boilerplate.js';
import { SCAN_WORDS, wordsOf } from './class-tokens.js';
import type { ElementCounts } from './segment-page.js';

export const FEATURES = [
  'log_tokens',
  'link_density',
  'log_links',
  'avg_token_chars',
  'ends_sentence',
  'comma_rate',
  'stopword_rate',
  'capital_rate',
  'digit_rate',
  'images',
  'tag_p',
  'tag_li',
  'tag_cell',
  'heading_level',
  'tag_pre',
  'tag_div',
  'tag_blockquote',
  'tag_dd_dt',
  'tag_other',
  'depth',
  'row_position',
  'token_position',
  'in_nav',
  'in_header',
  'in_footer',
  'in_aside',
  'in_form',
  'in_main',
  'in_article',
  'in_li',
  'in_table',
  'in_link_block',
  'in_section',
  'in_figure',
  'in_blockquote',
  'role_chrome',
  'hint_bad_distance',
  'hint_bad_count',
  'hint_content_distance',
  'hint_post_distance',
  'up1_log_words',
  'up1_link_density',
  'up2_log_words',
  'up2_link_density',
  'up3_log_words',
  'up3_link_density',
  'up5_log_words',
  'up5_link_density',
  'up1_word_share',
  'up3_word_share',
  'repeat_max',
  'repeat_level',
  'repeat_self',
  'duplicate_text',
  'duplicate_before',
  'prev_log_tokens',
  'prev_link_density',
  'next_log_tokens',
  'next_link_density',
  'page_log_tokens',
  'page_link_density',
  'page_log_rows',
  'sd_article',
  'sd_product',
  'sd_posts',
  'sd_list',
  'in_cleaned',
  'cleaned_share',
  'prev_in_cleaned',
  'next_in_cleaned',
  'lex_nearest',
  'lex_nearest_level',
  'lex_min',
  'lex_max',
  'lex_self',
  'title_overlap',
  'after_h1',
  'from_largest',
  'text_legal',
  'text_social',
  'text_date',
  'text_price',
  'text_meta',
  'repeat_group_share',
  'repeat_item_words',
  'under_related',
  'under_discussion',
  'rows_since_heading',
] as const;

const F = Object.fromEntries(FEATURES.map((n, i) => [n, i])) as Record<(typeof FEATURES)[number], number>;

const STOPWORDS = new Set(
  (
    'the a an and or but of to in on at for with by from as is are was were be been being it its this that these those ' +
    'he she they we you i his her their our your my not no so if then than there which who whom what when where how ' +
    'can could will would should may might must do does did has have had also more most such into about over after before ' +
    'between through during under while all any some each other only very just'
  ).split(' '),
);

const STOPWORD_CHARS = Math.max(...[...STOPWORDS].map((w) => w.length));

// Class/id words (between "-", "_" and spaces, ASCII case ignored) naming the page's content, and
// naming posts and cards: what /(?:^|[-_\s])(content|article|…|post-?content|…)(?:[-_\s]|$)/i
// found ("post-content" holds "content"), read word by word without a regex.
export const CONTENT_HINT_WORDS: ReadonlySet<string> = new Set(
  'content article entry story body text main prose markdown description detail details product recipe postcontent pagecontent'.split(' '),
);
export const POST_HINT_WORDS: ReadonlySet<string> = new Set(
  'comment comments reply replies message answer answers question thread post posts topic review reviews card item result listing teaser'.split(
    ' ',
  ),
);
const HINT_MIN = 4;
const HINT_MAX = 11;

/** Bit 2: a word of `names` is in CONTENT_HINT_WORDS, bit 4: one is in POST_HINT_WORDS. */
export function nameHints(names: string): number {
  // Words are looked up by the hash of their lower case, taken while scanning (no copy per word).
  const content = wordTable(CONTENT_HINT_WORDS);
  const post = wordTable(POST_HINT_WORDS);
  let hints = 0;
  let start = 0;
  let ascii = true;
  let h = WORD_HASH_START;
  for (let i = 0; i <= names.length; i++) {
    const c = i < names.length ? names.charCodeAt(i) : 32;
    if (c === 45 || c === 95 || isSpace(c)) {
      const len = i - start;
      // A word with a non-ASCII letter matches none (the regex's ignoreCase maps none to ASCII).
      if (ascii && len >= HINT_MIN && len <= HINT_MAX) {
        const key = asciiWordKey(h);
        if (inTable(keyed(content, key), names, start, len)) hints |= 2;
        if (inTable(keyed(post, key), names, start, len)) hints |= 4;
      }
      start = i + 1;
      ascii = true;
      h = WORD_HASH_START;
    } else if (c >= 128) ascii = false;
    else h = lowerHashStep(h, c);
  }
  return hints;
}
// The phrases that mark a line's kind (legal, social, date, price, post metadata): block-words.ts.
// The heading a block sits under says what the section is: "You may also like" holds cards that
// are not the page's, "Comments" holds posts that may be.
const RELATED =
  /\b(related|similar|also (like|bought|viewed)|recommended|popular|trending|more from|you might|recently viewed|latest (posts|news|articles)|read next|more (stories|articles|posts))\b/i;
const DISCUSSION = /\b(comments?|replies|responses|reviews?|discussion|answers?|leave a reply)\b/i;
// The containers a row is inside (in_nav, in_header, ...), one bit each in the row's walk up.
const INSIDE_LIST = [
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'main',
  'article',
  'li',
  'table',
  'a',
  'section',
  'figure',
  'blockquote',
] as const;
type Inside = (typeof INSIDE_LIST)[number];
const INSIDE_TAGS = new Set<string>(INSIDE_LIST);
const INSIDE = Object.fromEntries(INSIDE_LIST.map((t, i) => [t, i])) as Record<Inside, number>;
// role=main (at any level) counts as inside main; a chrome role has its own bit.
const MAIN_BIT = 1 << INSIDE.main;
const ROLE_SHIFT = INSIDE_LIST.length;
const ROLE_BIT = 1 << ROLE_SHIFT;
const LIST_TYPES = new Set(['ItemList', 'CollectionPage', 'SearchResultsPage', 'OfferCatalog']);
const POST_TYPES = new Set(['QAPage', 'DiscussionForumPosting', 'Question', 'Answer', 'Comment', 'SocialMediaPosting']);

/** Class/id word → log-odds of main content below it, against the overall rate (learned). */
export type Lexicon = Readonly<Record<string, number>>;

export interface BlockRows {
  /** Row-major features, FEATURES.length per row. */
  x: Float32Array;
  /** The block behind each row (blocks with at least one token). */
  blocks: Block[];
  /**
   * Row-major, GROUP_LEVELS.length per row: a number naming the row's ancestor element at each of
   * those levels (rows sharing it sit in one container), for the context features of block-context.ts.
   */
  groups: Int32Array;
  /**
   * The page offers a product for sale (structured-data.ts offersProduct): a shop's page, not a
   * company's page that names its Product without selling it, nor a news story whose paywall
   * markup declares its subscription as one. The calibration's productShift and the table-row rule
   * apply to such a page (block-model.ts).
   */
  offersProduct: boolean;
  /**
   * The class and id of every element on a row's walk up to body, read once here (a per-page
   * snapshot other passes over the rows' ancestors read instead of the attributes; the model does
   * not change the page before keepBlocks). Absent: read the attributes.
   */
  names: ReadonlyMap<Element, ElementRecord>;
}

/** An element's class and id as getAttribute gives them ('' when absent). */
export interface ElementNames {
  readonly cls: string;
  readonly id: string;
}

/**
 * What BlockRows.names holds of each element: its class and id, its role (getAttribute's answer), its
 * parent's record (null for body) and its number, counted from 0 in the order the records were made
 * (a parent's before its children's), for passes that keep per-element facts in typed arrays.
 */
export interface ElementRecord extends ElementNames {
  readonly el: Element;
  readonly up: ElementRecord | null;
  readonly role: string | null;
  readonly index: number;
}

/** Ancestor levels whose containers group rows (1 = the block element's parent). */
export const GROUP_LEVELS = [1, 2, 3, 5, 8] as const;

export function blockFeatures(
  blocks: readonly Block[],
  /** The elements' word counts and shape by number (segmentPage's, with these blocks). */
  shape: ElementCounts,
  data: StructuredData,
  /** Ids of the blocks rule-based clean-up keeps (not inside anything findBoilerplate found). */
  cleaned: ReadonlySet<number>,
  title = '',
  lexicon: Lexicon = {},
): BlockRows {
  const rows = blocks.filter((b) => b.tokens > 0);
  const cols = FEATURES.length;
  const x = new Float32Array(rows.length * cols);
  const groups = new Int32Array(rows.length * GROUP_LEVELS.length);
  const { elements, words: elementWords, linkWords: elementLinkWords, parent: parentOf, last, blockNode } = shape;
  const body = blocks[0]!.el;
  const pageStats = { words: elementWords[0]!, linkWords: elementLinkWords[0]! };
  const pageWords = Math.max(1, pageStats.words);
  let totalTokens = 0;
  for (const b of rows) totalTokens += b.tokens;

  // Each row's normalKey (countBlockWords), for the duplicate counts after the rows.
  const textKeys = new Int32Array(rows.length);

  const names = namesMemo(lexicon);
  // Siblings sharing an element's tag and class, with their words: counted once per parent (a list
  // of 100k items stays linear). Each child is given its group's number (+ 1) by element number when
  // its parent's children are first counted, so the later look-ups (per ancestor) need no key; the
  // groups' sizes and words are arrays by group number (no Map by element, no pair per group).
  const groupOfChild = new Int32Array(elements.length + 1);
  const groupCount = new Int32Array(elements.length + 1);
  const groupWords = new Int32Array(elements.length + 1);
  let groupsMade = 0;
  // One class table for the page, its entries stamped with the parent they count for (a parent's
  // children are counted once, together): no Map per parent.
  const byClass = new Map<string, SiblingKind>();
  /** The group number of element `n` (not the root). */
  const group = (n: number): number => {
    const known = groupOfChild[n]!;
    if (known !== 0) return known - 1;
    const p = parentOf[n]!;
    for (let c = p + 1; c <= last[p]!; c = last[c]! + 1) {
      const el = elements[c - 1]!;
      const g = siblingGroup(byClass, p, el.getAttribute('class') ?? '', el.localName, groupsMade);
      if (g === groupsMade) groupsMade++;
      groupCount[g]! += 1;
      groupWords[g]! += elementWords[c]!;
      groupOfChild[c] = g + 1;
    }
    return groupOfChild[n]! - 1;
  };
  // What the per-row walk up the tree reads of each ancestor, read once per element (many rows
  // share their ancestors; attribute reads are the walk's cost). Each element's record points to its
  // parent's (null above body), so a row's walk follows pointers: one Map look-up per row, not one
  // per ancestor, and the words, container number and sibling group of each level ride along.
  interface AncestorInfo extends ElementRecord {
    /** The parent's record; null for body (the walk's top) and for an element with no parent. */
    up: AncestorInfo | null;
    index: number;
    /** The element's INSIDE_TAGS bit (0: none); main and chrome are kept apart (they count at level 0). */
    inside: number;
    main: boolean;
    chrome: boolean;
    named: boolean;
    lex: number;
    hint: number;
    repeats: number;
    /** The group number (group) of siblings sharing the element's tag and class; -1 for body. */
    group: number;
    words: number;
    linkWords: number;
    /** The element's container number for `groups` (groupOf), -2 until a row asks. */
    gid: number;
  }
  const infoCache = new Map<Element, AncestorInfo>();
  // The records by element number (the walks up and the rows' look-ups go by number).
  const records: (AncestorInfo | undefined)[] = new Array(elements.length + 1);
  // Class, id and role from one walk over each element's attributes (readNames), not five reads.
  const read = elementNames();
  const make = (num: number): AncestorInfo => {
    const el = num === 0 ? body : elements[num - 1]!;
    const t = tagOf(el);
    const { className, hasClass, id: idOrNull, role } = readNames(el, read);
    const named = hasClass || idOrNull !== null;
    const cls = named ? className : '';
    const id = named ? (idOrNull ?? '') : '';
    const n = named ? names(el, cls, id) : undefined;
    const g = num !== 0 ? group(num) : -1;
    return {
      el,
      cls,
      id,
      role,
      up: null,
      index: -1,
      inside: INSIDE_TAGS.has(t) ? 1 << INSIDE[t as Inside] : 0,
      main: t === 'main' || role === 'main',
      chrome: CHROME_ROLES.has(role ?? ''),
      named,
      lex: n ? n.lex : NaN,
      hint: n ? n.hint : 0,
      repeats: g >= 0 ? groupCount[g]! - 1 : 0,
      group: g,
      words: elementWords[num]!,
      linkWords: elementLinkWords[num]!,
      gid: -2,
    };
  };
  // The records of element `num` and of its ancestors up to body, made top-down where missing.
  const missing: number[] = [];
  const info = (num: number): AncestorInfo => {
    const known = records[num];
    if (known !== undefined) return known;
    let above: AncestorInfo | null = null;
    for (let e = num; e >= 0; e = parentOf[e]!) {
      const k = records[e];
      if (k !== undefined) {
        above = k;
        break;
      }
      missing.push(e);
    }
    while (missing.length > 0) {
      const e = missing.pop()!;
      const a = make(e);
      a.up = above;
      a.index = infoCache.size;
      infoCache.set(a.el, a);
      records[e] = a;
      above = a;
    }
    return above!;
  };
  // Container numbers for `groups`, in the order rows first ask (one per record: its gid).
  let gids = 0;
  const gidOf = (a: AncestorInfo | undefined): number => {
    if (!a) return -1;
    if (a.gid === -2) a.gid = gids++;
    return a.gid;
  };

  let cleanedTokens = 0;
  for (const b of rows) if (cleaned.has(b.id)) cleanedTokens += b.tokens;
  const sd = data.types;
  const has = (set: Set<string>) => [...sd].some((t) => set.has(t));
  const page = {
    tokens: Math.log1p(totalTokens),
    linkDensity: pageStats.linkWords / pageWords,
    rows: Math.log1p(rows.length),
    article: declaresArticle(data) ? 1 : 0,
    product: sd.has('Product') || sd.has('ProductGroup') ? 1 : 0,
    posts: has(POST_TYPES) ? 1 : 0,
    list: has(LIST_TYPES) ? 1 : 0,
  };

  const titleWords = new Set(title.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
  let lookupChars = STOPWORD_CHARS;
  for (const t of titleWords) lookupChars = Math.max(lookupChars, t.length);
  const counts = newBlockWords();
  const firstH1 = rows.findIndex((b) => tagOf(b.el) === 'h1');
  let largest = 0;
  rows.forEach((b, r) => {
    if (b.tokens > rows[largest]!.tokens) largest = r;
  });
  const span = Math.max(1, rows.length - 1);

  let tokensBefore = 0;
  let headingText = '';
  let headingRow = -1;
  // The heading's verdicts, tested once per heading (rows under it share them).
  let testedHeading = '';
  let underRelated = 0;
  let underDiscussion = 0;
  // Each row's cells are stored at constant column numbers (F.name) from row offset `o`; the
  // ancestors of the current row (nearest first, the block itself left out) reuse one array.
  let o = 0;
  const up: AncestorInfo[] = [];
  const upStat = (k: number, wordsCol: number, densityCol: number) => {
    const a = up[Math.min(k, up.length) - 1];
    const words = a ? a.words : 0;
    x[o + wordsCol] = Math.log1p(words);
    x[o + densityCol] = words > 0 ? a!.linkWords / words : 0;
    return words;
  };
  for (let r = 0; r < rows.length; r++) {
    const b = rows[r]!;
    o = r * cols;
    const text = b.text;
    const w = countBlockWords(text, STOPWORDS, titleWords, lookupChars, counts);
    const nw = Math.max(1, w.words);
    x[o + F.log_tokens] = Math.log1p(b.tokens);
    x[o + F.link_density] = b.linkTokens / b.tokens;
    x[o + F.log_links] = Math.log1p(b.links);
    x[o + F.avg_token_chars] = w.chars / nw;
    x[o + F.ends_sentence] = w.endsSentence ? 1 : 0;
    x[o + F.comma_rate] = w.commas / nw;
    x[o + F.stopword_rate] = w.stop / nw;
    x[o + F.capital_rate] = w.caps / nw;
    x[o + F.digit_rate] = w.digits / nw;
    x[o + F.images] = Math.min(3, b.images);

    const tag = tagOf(b.el);
    const heading = headingLevel(tag);
    x[o + F.tag_p] = tag === 'p' ? 1 : 0;
    x[o + F.tag_li] = tag === 'li' ? 1 : 0;
    x[o + F.tag_cell] = tag === 'td' || tag === 'th' ? 1 : 0;
    x[o + F.heading_level] = heading;
    x[o + F.tag_pre] = tag === 'pre' ? 1 : 0;
    x[o + F.tag_div] = tag === 'div' || tag === 'section' || tag === 'article' || tag === 'body' ? 1 : 0;
    x[o + F.tag_blockquote] = tag === 'blockquote' ? 1 : 0;
    x[o + F.tag_dd_dt] = tag === 'dd' || tag === 'dt' ? 1 : 0;
    x[o + F.tag_other] = tag !== 'p' && tag !== 'li' && tag !== 'td' && tag !== 'th' && !heading && tag !== 'pre' && tag !== 'div' ? 1 : 0;

    // The ancestors, nearest first.
    let depth = 0;
    let badDistance = 99;
    let badCount = 0;
    let contentDistance = 99;
    let postDistance = 99;
    let repeatMax = 0;
    let repeatLevel = 99;
    let repeatGroup = -1;
    // One bit per INSIDE_TAGS entry (INSIDE), then MAIN_BIT and ROLE_BIT.
    let inside = 0;
    let lexNearest = NaN;
    let lexLevel = 99;
    let lexMin = 0;
    let lexMax = 0;
    up.length = 0;
    const self = info(blockNode[b.id]!);
    let level = 0;
    for (let a: AncestorInfo | null = self; a; a = a.up, level++) {
      if (level > 0) {
        up.push(a);
        inside |= a.inside;
      }
      if (a.main) inside |= MAIN_BIT;
      if (a.chrome) inside |= ROLE_BIT;
      if (a.named) {
        if (level <= 10) {
          const v = a.lex;
          if (!Number.isNaN(v)) {
            if (Number.isNaN(lexNearest)) {
              lexNearest = v;
              lexLevel = level;
            }
            lexMin = Math.min(lexMin, v);
            lexMax = Math.max(lexMax, v);
          }
        }
        const h = a.hint;
        if (h & 1) {
          badCount++;
          if (badDistance === 99) badDistance = level;
        }
        if (h & 2 && contentDistance === 99) contentDistance = level;
        if (h & 4 && postDistance === 99) postDistance = level;
      }
      if (level <= 6 && a.el !== body) {
        const n = a.repeats;
        if (n > repeatMax) {
          repeatMax = n;
          repeatLevel = level;
          repeatGroup = a.group;
        }
      }
      depth++;
    }
    x[o + F.depth] = depth;
    x[o + F.lex_nearest] = Number.isNaN(lexNearest) ? 0 : lexNearest;
    x[o + F.lex_nearest_level] = lexLevel;
    x[o + F.lex_min] = lexMin;
    x[o + F.lex_max] = lexMax;
    x[o + F.lex_self] = self.named ? self.lex || 0 : 0;
    x[o + F.row_position] = rows.length > 1 ? r / (rows.length - 1) : 0;
    x[o + F.token_position] = tokensBefore / Math.max(1, totalTokens);
    tokensBefore += b.tokens;
    x[o + F.in_nav] = (inside >> INSIDE.nav) & 1;
    x[o + F.in_header] = (inside >> INSIDE.header) & 1;
    x[o + F.in_footer] = (inside >> INSIDE.footer) & 1;
    x[o + F.in_aside] = (inside >> INSIDE.aside) & 1;
    x[o + F.in_form] = (inside >> INSIDE.form) & 1;
    x[o + F.in_main] = (inside >> INSIDE.main) & 1;
    x[o + F.in_article] = (inside >> INSIDE.article) & 1;
    x[o + F.in_li] = (inside >> INSIDE.li) & 1;
    x[o + F.in_table] = (inside >> INSIDE.table) & 1;
    x[o + F.in_link_block] = (inside >> INSIDE.a) & 1;
    x[o + F.in_section] = (inside >> INSIDE.section) & 1;
    x[o + F.in_figure] = (inside >> INSIDE.figure) & 1;
    x[o + F.in_blockquote] = (inside >> INSIDE.blockquote) & 1;
    x[o + F.role_chrome] = (inside >> ROLE_SHIFT) & 1;
    x[o + F.hint_bad_distance] = badDistance;
    x[o + F.hint_bad_count] = badCount;
    x[o + F.hint_content_distance] = contentDistance;
    x[o + F.hint_post_distance] = postDistance;

    for (let j = 0; j < GROUP_LEVELS.length; j++) {
      groups[r * GROUP_LEVELS.length + j] = gidOf(up[Math.min(GROUP_LEVELS[j]!, up.length) - 1]);
    }
    const up1 = upStat(1, F.up1_log_words, F.up1_link_density);
    upStat(2, F.up2_log_words, F.up2_link_density);
    const up3 = upStat(3, F.up3_log_words, F.up3_link_density);
    upStat(5, F.up5_log_words, F.up5_link_density);
    x[o + F.up1_word_share] = up1 / pageWords;
    x[o + F.up3_word_share] = up3 / pageWords;
    x[o + F.repeat_max] = Math.log1p(repeatMax);
    x[o + F.repeat_level] = repeatLevel;
    x[o + F.repeat_self] = Math.log1p(b.el !== body ? self.repeats : bodyRepeats(body));
    const items = repeatGroup >= 0 ? groupCount[repeatGroup]! : 0;
    const itemWords = repeatGroup >= 0 ? groupWords[repeatGroup]! : 0;
    x[o + F.repeat_group_share] = itemWords / pageWords;
    x[o + F.repeat_item_words] = items > 0 ? Math.log1p(itemWords / items) : 0;
    if (heading) {
      headingText = text;
      headingRow = r;
    }
    if (headingText !== testedHeading) {
      testedHeading = headingText;
      underRelated = RELATED.test(headingText) ? 1 : 0;
      underDiscussion = DISCUSSION.test(headingText) ? 1 : 0;
    }
    x[o + F.under_related] = underRelated;
    x[o + F.under_discussion] = underDiscussion;
    x[o + F.rows_since_heading] = headingRow >= 0 ? Math.log1p(r - headingRow) : -1;

    const prev = rows[r - 1];
    const next = rows[r + 1];
    x[o + F.prev_log_tokens] = prev ? Math.log1p(prev.tokens) : -1;
    x[o + F.prev_link_density] = prev ? prev.linkTokens / prev.tokens : -1;
    x[o + F.next_log_tokens] = next ? Math.log1p(next.tokens) : -1;
    x[o + F.next_link_density] = next ? next.linkTokens / next.tokens : -1;

    x[o + F.page_log_tokens] = page.tokens;
    x[o + F.page_link_density] = page.linkDensity;
    x[o + F.page_log_rows] = page.rows;
    x[o + F.sd_article] = page.article;
    x[o + F.sd_product] = page.product;
    x[o + F.sd_posts] = page.posts;
    x[o + F.sd_list] = page.list;

    x[o + F.in_cleaned] = cleaned.has(b.id) ? 1 : 0;
    x[o + F.cleaned_share] = cleanedTokens / Math.max(1, totalTokens);
    x[o + F.prev_in_cleaned] = prev ? (cleaned.has(prev.id) ? 1 : 0) : -1;
    x[o + F.next_in_cleaned] = next ? (cleaned.has(next.id) ? 1 : 0) : -1;

    x[o + F.title_overlap] = titleWords.size > 0 ? w.inTitle / nw : -1;
    x[o + F.after_h1] = firstH1 >= 0 ? (r - firstH1) / span : -2;
    x[o + F.from_largest] = (r - largest) / span;
    const kinds = w.kinds;
    textKeys[r] = w.normalKey;
    x[o + F.text_legal] = kinds & KIND_LEGAL ? 1 : 0;
    x[o + F.text_social] = kinds & KIND_SOCIAL ? 1 : 0;
    x[o + F.text_date] = kinds & KIND_DATE ? 1 : 0;
    x[o + F.text_price] = kinds & KIND_PRICE ? 1 : 0;
    x[o + F.text_meta] = kinds & KIND_META ? 1 : 0;
  }
  // How often each block's text occurs on the page, and how often before it (a thread's reply
  // previews repeat posts: the first copy is the content).
  const duplicates = duplicateCounts(
    rows.map((b) => b.text),
    textKeys,
  );
  for (let r = 0; r < rows.length; r++) {
    o = r * cols;
    x[o + F.duplicate_text] = Math.min(5, duplicates.count[r]! - 1);
    // Blocks of one or two words ("Reply", "Share") repeat by design; only text repeats are copies.
    x[o + F.duplicate_before] = rows[r]!.tokens >= 3 ? Math.min(5, duplicates.before[r]!) : 0;
  }
  return { x, blocks: rows, groups, offersProduct: offersProduct(data), names: infoCache };
}

/** 1–6 for h1–h6, else 0 (/^h[1-6]$/ and its digit, without a regex run per row). */
export function headingLevel(tag: string): number {
  if (tag.length !== 2 || tag.charCodeAt(0) !== 104) return 0;
  const d = tag.charCodeAt(1) - 48;
  return d >= 1 && d <= 6 ? d : 0;
}

/** What an element's class and id say: the mean lexicon score of their words (NaN: none known) and the hint bits (1 boilerplate, 2 content, 4 post). */
interface Names {
  lex: number;
  hint: number;
}

// Class values repeat across a page's elements and from page to page: each distinct one is scored
// once per lexicon. Ids do not repeat (one element each): an element with an id adds its id's words
// to its class's, summed in the order the joined "class id" split gave (the same float sum).
// Bounded like value-memo.ts (a page of generated names must not grow it).
const MAX_NAMES = 4096;

interface ClassNames extends Names {
  /** The class's words, their lexicon sum and how many were known (lex = sum / count). */
  words: readonly string[];
  sum: number;
  count: number;
  /** nameHints of the class alone. */
  hints: number;
  /** classLikeBoilerplate of the class (looksLikeBoilerplate's answer for an element without an id). */
  boiler: boolean;
  /** `words` as a Set, made when an element with an id needs it and they are many. */
  wordSet: Set<string> | undefined;
}

const NO_WORDS: readonly string[] = [];

const namesMemos = new WeakMap<Lexicon, Map<string, ClassNames>>();
const lexiconMaps = new WeakMap<Lexicon, ReadonlyMap<string, number>>();

/**
 * The lexicon as a Map: a word (a new string) is found by its hash, where the object (a dictionary
 * of ~1,400 keys) first looked it up in V8's string table, about twice as slow. The object's
 * inherited properties answered too ("constructor": a function, whose sum made the mean NaN):
 * they map to NaN, so every mean stays what it was.
 */
function lexiconMap(lexicon: Lexicon): ReadonlyMap<string, number> {
  let map = lexiconMaps.get(lexicon);
  if (map) return map;
  const scores = new Map<string, number>(Object.entries(lexicon));
  for (let p = Object.getPrototypeOf(lexicon) as object | null; p; p = Object.getPrototypeOf(p) as object | null) {
    for (const k of Object.getOwnPropertyNames(p)) {
      const v = (lexicon as Record<string, unknown>)[k];
      if (!scores.has(k) && v !== undefined) scores.set(k, typeof v === 'number' ? v : NaN);
    }
  }
  lexiconMaps.set(lexicon, (map = scores));
  return map;
}

/** `cls` and `id`: the element's, as getAttribute gives them ('' when absent). */
function namesMemo(lexicon: Lexicon): (el: Element, cls: string, id: string) => Names {
  let memo = namesMemos.get(lexicon);
  if (!memo) namesMemos.set(lexicon, (memo = new Map()));
  const known = memo;
  const scores = lexiconMap(lexicon);
  return (el, cls, id) => {
    let c = known.get(cls);
    if (c === undefined) {
      // Split here, not through tokensOf's memo: this memo is the class's first look-up, so that one
      // nearly always missed too (~80 % of its calls), paying its Map entry and a frozen copy.
      const words = cls === '' ? NO_WORDS : wordsOf(cls);
      let sum = 0;
      let count = 0;
      for (const t of words) {
        const s = scores.get(t);
        if (s !== undefined) {
          sum += s;
          count++;
        }
      }
      const hints = nameHints(cls);
      const boiler = classLikeBoilerplate(cls);
      c = {
        words,
        sum,
        count,
        hints,
        boiler,
        lex: count > 0 ? sum / count : NaN,
        hint: (boiler ? 1 : 0) | hints,
        wordSet: undefined,
      };
      if (known.size >= MAX_NAMES) known.clear();
      known.set(cls, c);
    }
    if (id === '') return c;
    let sum = c.sum;
    let count = c.count;
    // The class's words as a Set once there are many (an id of many words against a class of many
    // was their product).
    if (c.words.length > SCAN_WORDS) c.wordSet ??= new Set(c.words);
    const wordSet = c.wordSet;
    for (const t of wordsOf(id)) {
      if (wordSet !== undefined ? wordSet.has(t) : c.words.includes(t)) continue;
      const s = scores.get(t);
      if (s !== undefined) {
        sum += s;
        count++;
      }
    }
    // looksLikeBoilerplate: the class's answer (kept with it) or the id's.
    const boiler = c.boiler || idLikeBoilerplate(el.localName, id);
    return { lex: count > 0 ? sum / count : NaN, hint: (boiler ? 1 : 0) | c.hints | nameHints(id) };
  };
}

// Siblings are grouped by class, then tag: keyed by the class value itself (one string per element
// whose hash is kept), not by a "tag|class" string built and hashed anew per child. Siblings of one
// class nearly always share a tag; another tag gets a map of its own. An entry belongs to one parent
// at a time: met under another parent, it starts over (the earlier parent's groups are its
// children's already).
interface SiblingKind {
  /** The parent's element number. */
  parent: number;
  tag: string;
  group: number;
  others: Map<string, number> | null;
}

/** The group number of `parent`'s children with class `cls` and tag `tag`; `next` (the next unused number) when new. */
function siblingGroup(byClass: Map<string, SiblingKind>, parent: number, cls: string, tag: string, next: number): number {
  const kind = byClass.get(cls);
  if (kind === undefined || kind.parent !== parent) {
    if (kind === undefined) byClass.set(cls, { parent, tag, group: next, others: null });
    else {
      kind.parent = parent;
      kind.tag = tag;
      kind.group = next;
      kind.others = null;
    }
    return next;
  }
  if (kind.tag === tag) return kind.group;
  kind.others ??= new Map();
  const group = kind.others.get(tag);
  if (group !== undefined) return group;
  kind.others.set(tag, next);
  return next;
}

/** How many of body's siblings (body among them) share its tag and class, less one (repeat_self of a body row). */
function bodyRepeats(body: Element): number {
  const parent = body.parentElement;
  if (!parent) return 0;
  const cls = body.getAttribute('class') ?? '';
  let n = 0;
  for (let c = parent.firstElementChild; c; c = c.nextElementSibling)
    if (c.localName === body.localName && (c.getAttribute('class') ?? '') === cls) n++;
  return n - 1;
}
