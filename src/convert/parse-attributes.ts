// htmlparser2's Parser collects a tag's attributes into a fresh object (`attribs[name] = value`, each
// name first checked with `hasOwnProperty`), which linkedom's handler then reads back with
// `Object.keys` to build an Attr per name: per element an object grown key by key through V8's
// megamorphic stores, a key array, and garbage that makes the scavenges that copy the half-built
// document more frequent (`onattribend` was the parse's top function on trafilatura-eval).
//
// Here, for the parsers linkedom builds, the attributes go into one reused pair of arrays instead; the
// handler is given an empty object, and the Attrs are added to the element it built right after, as
// its own `attribute()` adds them (fast-nodes.ts: `attachParsedAttributes`). What the handler and
// the document see is the same: the first of repeated names wins, a `__proto__` attribute is dropped
// (an object's `__proto__` setter ignores a string), names are in the object's key order (a tag
// with a name starting with a digit, where integer-like keys would come first, takes the stock path,
// as does every tag while custom elements are active or before the parse's first element told which
// document it builds).
//
// Guarded like text-scan.ts: only for the audited Parser members and linkedom's audited `onopentag`
// (checked per parse: another handler, another htmlparser2 user in the process, keeps the stock
// path), and only while fast-nodes.ts builds the elements (it reports the element built).

import { createHash } from 'node:crypto';
import { parseHTML } from 'linkedom';
import { attachParsedAttributes, fastNodesApplied, takeBuiltElement } from './fast-nodes.js';
import { linkedomParser } from './linkedom-parser.js';

/** SHA-256 of the Parser members below in htmlparser2 10.1.0: its ESM and CommonJS builds (which differ in how they name imports). */
export const AUDITED_PARSER_ATTRIBUTES: readonly string[] = [
  'c750637c7c3821e14eb533dd7cca619fb0f6db085ac2bed17dc46c496a2a6539',
  'e26790be00cd35f921028e17985a3929b8d829c70b0bdd6213dca718bca5911c',
];
/** SHA-256 of linkedom 0.18.14's parser handler `onopentag` (ESM and CommonJS builds alike). */
export const AUDITED_ONOPENTAG = '120163c5ae6a89f9337500902a0b9f791e9b40e700700743dab23505a34a0fec';

/** The members that set, fill, hand over or clear `attribs`, or call `onopentag`. */
const MEMBERS = [
  'emitOpenTag',
  'endOpenTag',
  'onattribend',
  'onattribname',
  'onattribdata',
  'onattribentity',
  'onopentagend',
  'onselfclosingtag',
  'closeCurrentTag',
  'onclosetag',
  'reset',
] as const;

const STATE = Symbol('websift.parseAttributes');

/** A tag's attributes in order, the first of repeated names kept. */
class AttributeList {
  readonly names: string[] = [];
  readonly values: string[] = [];
  count = 0;
  /** A name starts with a digit: an object would order integer-like keys first. */
  digit = false;
  reset(): this {
    this.count = 0;
    this.digit = false;
    return this;
  }
  add(name: string, value: string): void {
    if (name === '__proto__') return;
    for (let i = 0; i < this.count; i++) if (this.names[i] === name) return;
    this.names[this.count] = name;
    this.values[this.count] = value;
    this.count++;
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) this.digit = true;
  }
  /** The object htmlparser2 would have built. */
  toObject(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = 0; i < this.count; i++) out[this.names[i]!] = this.values[i]!;
    return out;
  }
}

interface ParseState {
  /** Null for a handler other than linkedom's audited one. */
  list: AttributeList | null;
  /** The document the parse builds, from its first element; null until then. */
  doc: Record<symbol, { active: boolean }> | null;
}

interface ParserLike {
  cbs: { onopentag?: unknown; onattribute?: unknown };
  attribs: Record<string, string> | AttributeList | null;
  attribname: string;
  attribvalue: string;
  endIndex: number;
  [STATE]?: ParseState;
}
type Method = (this: ParserLike, ...args: never[]) => void;
type Proto = Record<string, Method>;

function parserPrototype(parse: typeof parseHTML = parseHTML): Proto | undefined {
  const parser = linkedomParser(parse);
  const proto = parser ? (Object.getPrototypeOf(parser) as Proto) : undefined;
  return proto && MEMBERS.every((m) => typeof proto[m] === 'function') ? proto : undefined;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

export function parserAttributesHash(parse: typeof parseHTML = parseHTML): string | undefined {
  const proto = parserPrototype(parse);
  return proto && sha(MEMBERS.map((m) => String(proto[m])).join('\n'));
}

/** The hash of linkedom's handler `onopentag` (of the given linkedom instance). */
export function onopentagHash(parse: typeof parseHTML = parseHTML): string | undefined {
  const parser = linkedomParser(parse) as { cbs?: { onopentag?: unknown } } | undefined;
  return typeof parser?.cbs?.onopentag === 'function' ? sha(String(parser.cbs.onopentag)) : undefined;
}

let patched: { proto: Proto; stock: Record<string, Method>; fast: Record<string, Method> } | null | undefined;

function prepare(): typeof patched {
  if (patched !== undefined) return patched;
  const proto = parserPrototype();
  if (!proto || !AUDITED_PARSER_ATTRIBUTES.includes(parserAttributesHash() ?? '') || onopentagHash() !== AUDITED_ONOPENTAG)
    return (patched = null);
  const emitOpenTag = proto['emitOpenTag'] as (this: ParserLike, name: string) => void;
  const endOpenTag = proto['endOpenTag'] as (this: ParserLike, isImplied: boolean) => void;
  const onattribend = proto['onattribend'] as (this: ParserLike, quote: number, endIndex: number) => void;
  const EMPTY: Record<string, string> = Object.freeze({}) as Record<string, string>;
  let auditedSource: string | undefined;

  const stateOf = (parser: ParserLike): ParseState => {
    let state = parser[STATE];
    if (state === undefined) {
      const { onopentag, onattribute } = parser.cbs;
      let linkedom = false;
      if (typeof onopentag === 'function' && onattribute === undefined) {
        const source = String(onopentag);
        if (source === auditedSource) linkedom = true;
        else if (sha(source) === AUDITED_ONOPENTAG) [linkedom, auditedSource] = [true, source];
      }
      state = { list: linkedom ? new AttributeList() : null, doc: null };
      parser[STATE] = state;
    }
    return state;
  };

  const fast = {
    emitOpenTag(this: ParserLike, name: string): void {
      emitOpenTag.call(this, name);
      if (this.attribs !== null && fastNodesApplied()) {
        const list = stateOf(this).list;
        if (list) this.attribs = list.reset();
      }
    },
    onattribend(this: ParserLike, quote: number, endIndex: number): void {
      const list = this.attribs;
      if (!(list instanceof AttributeList)) {
        onattribend.call(this, quote, endIndex);
        return;
      }
      // htmlparser2's, with the handler's `onattribute` known to be absent.
      this.endIndex = endIndex;
      list.add(this.attribname, this.attribvalue);
      this.attribvalue = '';
    },
    endOpenTag(this: ParserLike, isImplied: boolean): void {
      const list = this.attribs;
      if (!(list instanceof AttributeList)) {
        endOpenTag.call(this, isImplied);
        return;
      }
      const state = this[STATE]!;
      const doc = state.doc;
      const direct = doc !== null && !doc[CUSTOM!]!.active && !list.digit && fastNodesApplied();
      this.attribs = direct ? EMPTY : list.toObject();
      takeBuiltElement();
      endOpenTag.call(this, isImplied);
      const element = takeBuiltElement();
      if (element === null) {
        if (direct && list.count > 0) throw new Error('parse-attributes: linkedom built no element through the document');
        return;
      }
      state.doc ??= (element as { ownerDocument: ParseState['doc'] }).ownerDocument;
      if (direct && list.count > 0) attachParsedAttributes(element, list.names, list.values, list.count);
    },
  };
  return (patched = { proto, stock: { emitOpenTag, endOpenTag, onattribend } as Record<string, Method>, fast });
}

let CUSTOM: symbol | undefined;
let on = false;

/** Collects parsed attributes in arrays (true) or in htmlparser2's object (false). */
export function setParseAttributes(enable: boolean): boolean {
  const p = prepare();
  if (!p) return false;
  CUSTOM ??= customElementsSymbol();
  if (!CUSTOM) return false;
  for (const [name, fn] of Object.entries(enable ? p.fast : p.stock))
    Object.defineProperty(p.proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  on = enable;
  return on;
}

export function parseAttributesApplied(): boolean {
  return on;
}

function customElementsSymbol(): symbol | undefined {
  const { document } = parseHTML('<p></p>') as unknown as { document: object };
  return Object.getOwnPropertySymbols(document).find((s) => s.description === 'CustomElements');
}
