// The nesting cap (nesting-cap.ts) decided by the parser itself. capNesting replays htmlparser2's
// open-element stack over the whole page before the parse, on every page with more than
// MAX_PARSE_DEPTH start tags (284 of 990 trafilatura-eval pages): ~0.2 ms a page, as much as the rest of
// the parse's preparation together, to return the page unchanged, since no page of the corpora
// nests deeper than ~60.
//
// Here the parse runs first on the page as it is, watched: htmlparser2's `emitOpenTag` (every open
// tag, implied ones too) gives up the parse as soon as its stack is deeper than the watch's limit, and
// `oncdata` as soon as it meets a CDATA section (in HTML the replay reads one as a browser does, up to
// its first `>`, where the parser reads up to `]]>`: the only place the two are meant to differ).
// A parse that ends is the one the replay would have led to: capNesting removes only open tags that
// would nest deeper than the cap, so a page the parser never nests past it comes back from capNesting
// unchanged. A parse given up is thrown away and the page takes the replay and a second parse, as
// before: a deep page pays its partial parse twice at most, and stays linear.
//
// The watch also tells whether a comment's text starts `[CDATA[` (`oncomment`): a parse that met no
// CDATA section and no such comment leaves parse-html.ts's reopenCdata nothing to re-read, so the
// walk of the body's comments it made on every page holding `<![CDATA[` (453 of 990 trafilatura
// pages, nearly all in scripts) is skipped.
//
// htmlparser2's Parser is reached as htmlparser2-parts.ts says, guarded by a hash of the members relied
// on; with any other htmlparser2 `parseWatched` answers undefined and every page takes the replay (and
// the comment walk where it did).

import { parseHTML } from 'linkedom';
import { membersHash, prototypeWith, sampleParser } from './htmlparser2-parts.js';

/** SHA-256 of the Parser members below in htmlparser2 10.1.0. */
export const AUDITED_PARSER = '56d123847858bd5c92a98e54775fafb7cc788575376379fb2c285c73bcb00cb0';

const MEMBERS = ['emitOpenTag', 'oncdata', 'onopentagname', 'onclosetag', 'closeCurrentTag', 'oncomment', 'getSlice'] as const;

interface ParserState {
  stack: string[];
  getSlice(start: number, end: number): string;
}
type Member = (this: ParserState, ...args: unknown[]) => void;
type Proto = Record<string, Member>;

/** The prototype of the parser linkedom makes (of the given linkedom instance). */
function parserPrototype(parse: typeof parseHTML = parseHTML): Proto | undefined {
  return prototypeWith<Proto>(sampleParser(parse), MEMBERS);
}

export function parserHash(parse: typeof parseHTML = parseHTML): string | undefined {
  const proto = parserPrototype(parse);
  return proto && membersHash(proto, MEMBERS);
}

/** Thrown through linkedom's parse to give it up (caught in parseWatched only). */
const GIVE_UP = Object.freeze({ reason: 'parse-depth: given up' });

/** The open elements a watched parse may hold; Infinity while no parse is watched. */
let limit = Number.POSITIVE_INFINITY;
/** Whether the watched parse met a comment whose text starts `[CDATA[`. */
let cdataComment = false;

let installed: boolean | undefined;
let enabled = true;

function install(): boolean {
  if (installed !== undefined) return installed;
  installed = false;
  const proto = parserPrototype();
  if (!proto || parserHash() !== AUDITED_PARSER) return false;
  const emitOpenTag = proto['emitOpenTag']!;
  const oncdata = proto['oncdata']!;
  const oncomment = proto['oncomment']!;
  const watched: Proto = {
    emitOpenTag(this: ParserState, name: unknown): void {
      emitOpenTag.call(this, name);
      if (this.stack.length > limit) throw GIVE_UP;
    },
    oncdata(this: ParserState, ...args: unknown[]): void {
      if (limit !== Number.POSITIVE_INFINITY) throw GIVE_UP;
      oncdata.apply(this, args);
    },
    oncomment(this: ParserState, ...args: unknown[]): void {
      const [start, endIndex, offset] = args as [number, number, number];
      if (limit !== Number.POSITIVE_INFINITY && !cdataComment && endIndex - offset - start >= 7)
        cdataComment = this.getSlice(start, start + 7) === '[CDATA[';
      oncomment.apply(this, args);
    },
  };
  for (const [name, fn] of Object.entries(watched))
    Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  installed = true;
  return true;
}

/**
 * For a parse that does not go through htmlparser2's Parser (tree-builder.ts): the watched parse's
 * depth limit (Infinity while no parse is watched), read once as that parse starts.
 */
export function watchedLimit(): number {
  return limit;
}

/** Gives up the watched parse (as the Parser's watch does past the limit or at CDATA). */
export function giveUpParse(): never {
  throw GIVE_UP;
}

/** A comment the watched parse met, as the Parser's `oncomment` watch reads it. */
export function noteComment(data: string): void {
  if (limit !== Number.POSITIVE_INFINITY && !cdataComment && data.startsWith('[CDATA[')) cdataComment = true;
}

export interface Watched<T> {
  value: T;
  /**
   * Whether a comment's text starts `[CDATA[` (`<!--[CDATA[`): the only comments parse-html.ts's
   * reopenCdata reads again, since the parse met no CDATA section.
   */
  cdataComments: boolean;
}

/**
 * `parse()` (a linkedom parse), given up (undefined) when htmlparser2 nests an element deeper than
 * `maxDepth` or meets a CDATA section; undefined as well when the watch is not in use.
 */
export function parseWatched<T>(parse: () => T, maxDepth: number): Watched<T> | undefined {
  if (!enabled || !install() || limit !== Number.POSITIVE_INFINITY) return undefined;
  limit = maxDepth;
  cdataComment = false;
  try {
    const value = parse();
    return { value, cdataComments: cdataComment };
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  } finally {
    limit = Number.POSITIVE_INFINITY;
  }
}

/** Watches parses (true) or leaves every page to the replay (false, as before); true when the watch is in use. */
export function setParseWatch(enable: boolean): boolean {
  enabled = enable;
  return enable && install();
}

/** True when parses are watched (the audited htmlparser2, not switched off). */
export function parseWatchApplied(): boolean {
  return enabled && install();
}
