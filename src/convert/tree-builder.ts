// linkedom's `parseHTML` runs three layers per token: htmlparser2's Tokenizer, htmlparser2's Parser (the
// HTML rules, and a plain object of each tag's attributes, filled name by name with a `hasOwnProperty`
// check: `onattribend` was the parse's largest own item, ~3 % of the conversion) and linkedom's handler
// (shared/parse-from-string.js: `Object.keys` of that object, an Attr per key, the nodes linked in).
//
// Here one handler, driven by htmlparser2's own Tokenizer, applies the Parser's HTML-mode rules and
// linkedom's handler's together and links linkedom's nodes straight away: an attribute joins its element's
// node list as it ends. The rules are htmlparser2 10.1.0's (Parser.js) as linkedom 0.18.14 sets it up
// (HTML mode, entities decoded, attribute names as written):
// - tag names lower-cased; `openImpliesClose` closes the open elements it names at the top of the stack
//   before a tag opens; void elements never go on the stack (their element is closed as it ends);
// - an end tag closes everything above the nearest open element of its name, or nothing; `</p>` with no
//   open p makes an empty p, `</br>` a br; another void end tag does nothing;
// - `/>` closes an element only in a foreign context (svg, math; html again in their integration
//   points), which an end tag of those names leaves, whether it was open or not (the Parser's quirk);
// - a CDATA section in HTML becomes a comment `[CDATA[…]]`; `<!doctype …>` sets the document's doctype;
//   a tag the input ends inside is dropped;
// - an attribute name met again on the same tag is dropped (the first wins, as the Parser's object
//   kept it), `__proto__` is dropped (assigning a string to an object's `__proto__` does nothing), and
//   names that are array indices come first in ascending order, since linkedom read `Object.keys`;
// - linkedom's side: an element inside `<svg>` is an SVG element with its `ownerSVGElement`; `class`
//   is set through `className`, as linkedom's `attribute` does; each text run and each entity in text
//   is a text node of its own (linkedom joins none).
// The parse watch (parse-depth.ts) holds as with the Parser: given up when the stack passes the watched
// depth or at a CDATA section, and a comment starting `[CDATA[` reported.
//
// Guarded like the other linkedom changes: the Parser class's source and linkedom's handler's methods
// must hash to the audited ones, and a probe page that walks through every rule above must give the same
// nodes (types, names, values, order, parents) both ways; otherwise, or with `setTreeBuilder(false)`,
// `parseDocument` is linkedom's `parseHTML`. Custom elements are never active on a fresh document; one
// that is takes linkedom's path too.

import { createHash } from 'node:crypto';
import { DOMParser, parseHTML } from 'linkedom';
import { linkedomSymbols } from './fast-nodes.js';
import { sampleParser } from './htmlparser2-parts.js';
import { NameTable } from './name-table.js';
import { giveUpParse, noteComment, watchedLimit } from './parse-depth.js';
import { foreignContextElements, htmlIntegrationElements, openImpliesClose, voidElements } from './parser-rules.js';

/**
 * SHA-256 of htmlparser2 10.1.0's Parser class source and linkedom 0.18.14's parse handler's methods: the
 * CommonJS build of htmlparser2 (as tsx loads it), then the ESM one (as vitest does); they differ only in
 * how the class names its imports.
 */
export const AUDITED_PARSE: readonly string[] = [
  '2748323bc48feb15832e812f22a6d6cd260c0e5ffcda1d9b67c619506b047609',
  '1616d6991ac72e94e2595e3ddf9904a18f57140ca2550fa10598d03d9daf9961',
];

const HANDLER_METHODS = ['onprocessinginstruction', 'onopentag', 'oncomment', 'ontext', 'oncdatastart', 'oncdataend', 'onclosetag'];

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

const reNameEnd = /\s|\//;

/** One string per distinct tag name (lower-cased) and attribute name, for every parse (name-table.ts). */
const tagNames = new NameTable(true);
const attributeNames = new NameTable(false);

/**
 * A tag's first attribute names are checked one by one against the earlier ones. Past this many, each
 * name is linked at once and only its hash is kept (FNV-1a from a per-process random basis, in a
 * Uint32Array with open addressing): a name whose hash was met before is a suspect, and at the tag's end
 * the suspects met again are unlinked, the first kept. A Set or an object of every name (as the Parser
 * had), or keeping every name for a sort, cost ~1 µs a name on a tag of 50,000 (the table and the array
 * of names the collector traces) and made the conversion grow ×9–26 from 12,500 to 50,000 attributes.
 * A run of more than MAX_PROBES equal slots (hashes made to collide) gives the table up for a sort of
 * the tag's names at its end: n log n at worst.
 */
const SCAN_NAMES = 8;
const MAX_PROBES = 64;
let hashBasis = (Math.random() * 0x100000000) | 0;

/** Sets the names' hash basis (tests: a known one, to make names collide); returns the one before. */
export function setNameHashBasis(basis: number): number {
  const before = hashBasis;
  hashBasis = basis | 0;
  return before;
}

/** The name's hash, never 0 (an empty slot). */
export function nameHash(name: string): number {
  let h = hashBasis;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h === 0 ? 1 : h >>> 0;
}

/** The hashes of a tag's names past the scan. */
class NameHashes {
  table = new Uint32Array(64);
  count = 0;

  /** Adds `h`; true when it was there already, undefined when the probes ran past MAX_PROBES. */
  add(h: number): boolean | undefined {
    if (2 * (this.count + 1) > this.table.length && !this.grow()) return undefined;
    const table = this.table;
    const mask = table.length - 1;
    let at = h & mask;
    for (let probes = 0; probes <= MAX_PROBES; probes++) {
      const held = table[at]!;
      if (held === 0) {
        table[at] = h;
        this.count++;
        return false;
      }
      if (held === h) return true;
      at = (at + 1) & mask;
    }
    return undefined;
  }

  /** Doubles the table; false when a hash could not be placed again (the table is then given up). */
  grow(): boolean {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    this.count = 0;
    for (const h of old) if (h !== 0 && this.add(h) === undefined) return false;
    return true;
  }
}

type Node = Record<PropertyKey, unknown>;
type Doc = Node & {
  createElement(name: string): Node;
  createElementNS(ns: string, name: string): Node;
  createTextNode(data: string): Node;
  createComment(data: string): Node;
  createAttribute(name: string): Node;
  doctype: unknown;
};
interface Tokenizer {
  write(chunk: string): void;
  end(): void;
}
type TokenizerClass = new (options: { xmlMode: boolean; decodeEntities: boolean }, cbs: object) => Tokenizer;

interface Parts {
  Tokenizer: TokenizerClass;
  NEXT: symbol;
  PREV: symbol;
  END: symbol;
  VALUE: symbol;
  CUSTOM: symbol;
}

/** Whether `name` is an array index, which `Object.keys` lists first, in ascending order. */
function isIndex(name: string): boolean {
  const c = name.charCodeAt(0);
  if (c < 48 || c > 57) return false;
  if (name.length > 1 && c === 48) return false;
  for (let i = 1; i < name.length; i++) {
    const d = name.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return name.length < 10 || (name.length === 10 && Number(name) <= 4294967294);
}

/** One parse: the Tokenizer's callbacks, building into `doc`. */
class Builder {
  readonly html: string;
  readonly doc: Doc;
  readonly p: Parts;
  readonly limit: number;
  /** The element new nodes go into (the document at the top). */
  node: Node;
  ownerSVG: Node | null = null;
  /** Open element names, innermost last (the Parser's stack, reversed). */
  readonly stack: string[] = [];
  /** The Parser's foreign-context flags, innermost last. */
  readonly foreign: (boolean | undefined)[] = [false];
  /** The tag being read (its element not yet linked into the tree) and its name. */
  element: Node | null = null;
  tagname = '';
  attribname = '';
  attribvalue = '';
  /**
   * The tag's first SCAN_NAMES attribute names, checked one by one: the first `nameCount` slots. One
   * array for the whole parse (emptying it by `length = 0` dropped its storage, so every tag with an
   * attribute allocated a new one: ~95 KiB a traf page).
   */
  readonly names: string[] = new Array<string>(SCAN_NAMES).fill('');
  nameCount = 0;
  /** Past them: the names' hashes (null after too many probes), and the names whose hash was met before. */
  hashes: NameHashes | null = null;
  unchecked = false;
  suspects: Set<string> | null = null;
  /** Whether the tag's `class` is linked (set through `className` once, by the first). */
  classLinked = false;
  /** Array-index attribute names and values, linked at the tag's end. */
  indexed: string[] | null = null;

  constructor(html: string, doc: Doc, p: Parts, limit: number) {
    this.html = html;
    this.doc = doc;
    this.p = p;
    this.limit = limit;
    this.node = doc;
  }

  /** Puts `first` … `last` (a node and its end marker, or one node) into the list right after `prev`. */
  splice(prev: Node, first: Node, last: Node): void {
    const { NEXT, PREV } = this.p;
    const next = prev[NEXT] as Node;
    prev[NEXT] = first;
    first[PREV] = prev;
    last[NEXT] = next;
    next[PREV] = last;
  }

  /** linkedom's `append`: `child` (with `last`, its end marker or itself) as `parent`'s last child. */
  link(parent: Node, child: Node, last: Node): void {
    child['parentNode'] = parent;
    this.splice((parent[this.p.END] as Node)[this.p.PREV] as Node, child, last);
  }

  /** An attribute node of `el`, linked right after `prev` (el itself, or one of its attributes). */
  linkAttribute(el: Node, prev: Node, name: string, value: string): Node {
    const attr = this.doc.createAttribute(name);
    attr[this.p.VALUE] = value;
    attr['ownerElement'] = el;
    this.splice(prev, attr, attr);
    return attr;
  }

  /** linkedom's `onclosetag`. */
  closeNode(): void {
    const node = this.node;
    if (node === this.ownerSVG) this.ownerSVG = null;
    this.node = node['parentNode'] as Node;
  }

  /** linkedom's element for a tag (an SVG one inside or as `<svg>`). */
  create(name: string): Node {
    const doc = this.doc;
    if (this.ownerSVG) {
      const el = doc.createElementNS(SVG_NAMESPACE, name);
      el['ownerSVGElement'] = this.ownerSVG;
      return el;
    }
    if (name === 'svg') return (this.ownerSVG = doc.createElementNS(SVG_NAMESPACE, name));
    return doc.createElement(name);
  }

  /** The Parser's `emitOpenTag`, with the watch's depth check. */
  openTag(name: string): void {
    const stack = this.stack;
    const implies = openImpliesClose.get(name);
    if (implies)
      while (stack.length > 0 && implies.has(stack[stack.length - 1]!)) {
        stack.pop();
        this.closeNode();
      }
    if (!voidElements.has(name)) {
      stack.push(name);
      if (foreignContextElements.has(name)) this.foreign.push(true);
      else if (htmlIntegrationElements.has(name)) this.foreign.push(false);
      if (stack.length > this.limit) giveUpParse();
    }
    this.tagname = name;
    this.element = this.create(name);
    this.nameCount = 0;
    this.unchecked = false;
    this.hashes = null;
    this.suspects = null;
    this.classLinked = false;
  }

  /** The Parser's `endOpenTag`: the element joins the tree (and a void one is closed at once). */
  endOpenTag(): void {
    const el = this.element!;
    if (this.unchecked && (this.suspects || !this.hashes)) this.dropRepeats(el);
    if (this.indexed) this.linkIndexed(el);
    this.link(this.node, el, el[this.p.END] as Node);
    if (!voidElements.has(this.tagname)) this.node = el;
    this.element = null;
    this.tagname = '';
  }

  /** Links an attribute at the end of `el`'s attributes (linkedom's `attribute`). */
  attribute(el: Node, name: string, value: string): void {
    this.linkAttribute(el, (el[this.p.END] as Node)[this.p.PREV] as Node, name, value);
    if (name === 'class') el['className'] = value;
  }

  /** The array-index names, in ascending order, ahead of the element's other attributes. */
  linkIndexed(el: Node): void {
    const pairs: [number, string, string][] = [];
    const list = this.indexed!;
    for (let i = 0; i < list.length; i += 2) pairs.push([Number(list[i]), list[i]!, list[i + 1]!]);
    // Stable: of one name met again past the scan, the first stays first.
    pairs.sort((a, b) => a[0] - b[0]);
    let prev = el;
    let last = Number.NaN;
    for (const [n, name, value] of pairs) {
      if (n === last) continue;
      last = n;
      prev = this.linkAttribute(el, prev, name, value);
    }
    this.indexed = null;
  }

  /**
   * Whether the tag has had this attribute name already, among its first SCAN_NAMES (recorded if not);
   * past them every name is taken, its hash noted, and dropRepeats removes the repeats at the tag's end.
   */
  repeated(name: string): boolean {
    const names = this.names;
    if (!this.unchecked) {
      const count = this.nameCount;
      for (let i = 0; i < count; i++) if (names[i] === name) return true;
      if (count < SCAN_NAMES) {
        names[count] = name;
        this.nameCount = count + 1;
        return false;
      }
      this.unchecked = true;
      this.hashes = new NameHashes();
      for (const earlier of names) this.hashes.add(nameHash(earlier));
    }
    if (this.hashes) {
      const met = this.hashes.add(nameHash(name));
      if (met) (this.suspects ??= new Set()).add(name);
      else if (met === undefined) this.hashes = null;
    }
    return false;
  }

  /**
   * Unlinks every attribute of `el` whose name an earlier one has (the first wins, as in the Parser):
   * the suspects', or, when the hashes were given up, those a sort of the names finds.
   */
  dropRepeats(el: Node): void {
    const { NEXT, PREV, END } = this.p;
    let repeats = this.suspects;
    if (!this.hashes) {
      const all: string[] = [];
      for (let n = el[NEXT] as Node; n !== el[END]; n = n[NEXT] as Node) all.push(n['name'] as string);
      all.sort();
      repeats = null;
      for (let i = 1; i < all.length; i++) if (all[i] === all[i - 1]) (repeats ??= new Set()).add(all[i]!);
    }
    if (!repeats) return;
    const kept = new Set<string>();
    for (let n = el[NEXT] as Node; n !== el[END]; n = n[NEXT] as Node) {
      const name = n['name'] as string;
      if (!repeats.has(name)) continue;
      if (!kept.has(name)) kept.add(name);
      else {
        const prev = n[PREV] as Node;
        const next = n[NEXT] as Node;
        prev[NEXT] = next;
        next[PREV] = prev;
      }
    }
  }

  // The Tokenizer's callbacks (htmlparser2's Parser has the same names and arguments).

  ontext(start: number, end: number): void {
    const text = this.doc.createTextNode(this.html.slice(start, end));
    this.link(this.node, text, text);
  }

  ontextentity(cp: number): void {
    const text = this.doc.createTextNode(String.fromCodePoint(cp));
    this.link(this.node, text, text);
  }

  onopentagname(start: number, end: number): void {
    this.openTag(tagNames.read(this.html, start, end));
  }

  onattribname(start: number, end: number): void {
    this.attribname = attributeNames.read(this.html, start, end);
  }

  onattribdata(start: number, end: number): void {
    this.attribvalue += this.html.slice(start, end);
  }

  onattribentity(cp: number): void {
    this.attribvalue += String.fromCodePoint(cp);
  }

  onattribend(): void {
    const el = this.element;
    const name = this.attribname;
    const value = this.attribvalue;
    this.attribvalue = '';
    if (!el || this.repeated(name) || name === '__proto__') return;
    if (isIndex(name)) (this.indexed ??= []).push(name, value);
    else if (name !== 'class') this.attribute(el, name, value);
    else if (!this.classLinked) {
      this.classLinked = true;
      this.attribute(el, name, value);
    }
  }

  onopentagend(): void {
    this.endOpenTag();
  }

  onselfclosingtag(): void {
    const name = this.tagname;
    this.endOpenTag();
    // In a foreign context `/>` closes the element (the Parser's closeCurrentTag).
    if (this.foreign[this.foreign.length - 1] && this.stack[this.stack.length - 1] === name) {
      this.stack.pop();
      this.closeNode();
    }
  }

  onclosetag(start: number, end: number): void {
    const name = tagNames.read(this.html, start, end);
    if (foreignContextElements.has(name) || htmlIntegrationElements.has(name)) this.foreign.pop();
    if (!voidElements.has(name)) {
      const stack = this.stack;
      const at = stack.lastIndexOf(name);
      if (at !== -1)
        while (stack.length > at) {
          stack.pop();
          this.closeNode();
        }
      else if (name === 'p') {
        this.openTag('p');
        this.endOpenTag();
        this.stack.pop();
        this.closeNode();
      }
    } else if (name === 'br') {
      const br = this.create('br');
      this.link(this.node, br, br[this.p.END] as Node);
    }
  }

  oncomment(start: number, end: number, offset: number): void {
    const data = this.html.slice(start, end - offset);
    noteComment(data);
    const comment = this.doc.createComment(data);
    this.link(this.node, comment, comment);
  }

  oncdata(start: number, end: number, offset: number): void {
    if (this.limit !== Number.POSITIVE_INFINITY) giveUpParse();
    const comment = this.doc.createComment(`[CDATA[${this.html.slice(start, end - offset)}]]`);
    this.link(this.node, comment, comment);
  }

  ondeclaration(start: number, end: number): void {
    const value = this.html.slice(start, end);
    const at = value.search(reNameEnd);
    const name = (at < 0 ? value : value.slice(0, at)).toLowerCase();
    if (name === 'doctype') this.doc.doctype = value.slice(name.length).trim();
  }

  onprocessinginstruction(): void {
    // linkedom keeps only `<!doctype>`.
  }

  onend(): void {
    // The elements still open end with the input; a tag the input ends inside was never linked.
  }
}

let parts: Parts | null | undefined;
let enabled = true;

/** The Parser class and linkedom's handler of the parser linkedom makes, hashed. */
export function parseSourcesHash(parse: typeof parseHTML = parseHTML): string | undefined {
  const parser = sampleParser(parse) as { constructor: unknown; cbs?: Record<string, unknown> } | undefined;
  const cbs = parser?.cbs;
  if (!parser || !cbs || HANDLER_METHODS.some((m) => typeof cbs[m] !== 'function')) return undefined;
  const sources = [String(parser.constructor), ...HANDLER_METHODS.map((m) => String(cbs[m]))];
  return createHash('sha256').update(sources.join('\n')).digest('hex');
}

function prepare(): Parts | null {
  if (parts !== undefined) return parts;
  parts = null;
  const tokenizer = sampleParser()?.tokenizer as { constructor: TokenizerClass } | undefined;
  const symbols = linkedomSymbols();
  if (!tokenizer || !symbols || !AUDITED_PARSE.includes(parseSourcesHash() ?? '')) return null;
  const candidate: Parts = {
    Tokenizer: tokenizer.constructor,
    NEXT: symbols.next,
    PREV: symbols.prev,
    END: symbols.end,
    VALUE: symbols.value,
    CUSTOM: symbols.customElements,
  };
  parts = candidate;
  const same = documentNodes(build(PROBE, candidate)!) === documentNodes(stockParse(PROBE));
  parts = same ? candidate : null;
  return parts;
}

function stockParse(html: string): Document {
  return (parseHTML(html) as unknown as { document: Document }).document;
}

/** The builder's document, or undefined where linkedom's path must be taken. */
function build(html: string, p: Parts): Document | undefined {
  const doc = new DOMParser().parseFromString('', 'text/html') as unknown as Doc;
  if ((doc[p.CUSTOM] as { active: boolean }).active) return undefined;
  if (html) {
    const tokenizer = new p.Tokenizer({ xmlMode: false, decodeEntities: true }, new Builder(html, doc, p, watchedLimit()));
    tokenizer.write(html);
    tokenizer.end();
  }
  return doc as unknown as Document;
}

/** `html` as linkedom's `parseHTML` parses it, built by the one handler here when it applies. */
export function parseDocument(html: string): Document {
  const p = enabled ? prepare() : null;
  return (p && build(html, p)) || stockParse(html);
}

/** Builds documents here (true) or leaves them to linkedom's `parseHTML` (false); true when the builder is in use. */
export function setTreeBuilder(enable: boolean): boolean {
  enabled = enable;
  return enable && prepare() !== null;
}

export function treeBuilderApplied(): boolean {
  return enabled && prepare() !== null;
}

/**
 * Every node of a document in list order, one line each: its constructor, its own keys with their
 * primitive values, and for a node-valued key the index of that node (parent, owner element, SVG
 * element, list neighbours): two parses that agree here built the same nodes.
 */
export function documentNodes(document: Document): string {
  const doc = document as unknown as Node;
  const next = Object.getOwnPropertySymbols(doc).find((s) => s.description === 'next')!;
  const index = new Map<unknown, number>([[doc, 0]]);
  let i = 0;
  for (let n = doc[next] as Node | null; n; n = n[next] as Node | null) index.set(n, ++i);
  const lines: string[] = [];
  for (let n = doc[next] as Node | null; n; n = n[next] as Node | null) {
    const keys = Reflect.ownKeys(n).map((k) => {
      const v = n![k];
      const shown = v === null || typeof v !== 'object' ? JSON.stringify(v) : index.has(v) ? `#${index.get(v)}` : 'object';
      return `${typeof k === 'symbol' ? `@${k.description}` : k}=${shown}`;
    });
    lines.push(`${Object.getPrototypeOf(n)?.constructor?.name} ${keys.join(' ')}`);
  }
  const doctype = (document as unknown as { doctype: { name?: string; publicId?: string; systemId?: string } | null }).doctype;
  lines.push(`doctype ${JSON.stringify(doctype && [doctype.name, doctype.publicId, doctype.systemId])}`);
  return lines.join('\n');
}

// Every rule the builder reproduces, met at least once: the implied closes of each opening tag, void
// tags (with `/`, and as end tags), foreign contexts and their integration points, stray end tags,
// entities, duplicate, array-index and `__proto__` attributes, classes, comments, CDATA, declarations.
const PROBE = [
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd"><?xml version="1.0"?><!-- c --><html><head>',
  '<title>T &amp; t</title><link rel=x><script>var a = "<b>";</script><style>p{}</style></head>',
  '<body class=" a  b a " id=i id=j 2=two 1=one 0=zero 01=z __proto__=p data-x="&lt;&#x41;&q">',
  ...[...openImpliesClose].map(([opener, closed]) =>
    [...closed].map((c) => `<div><${c}>a<${opener} k=v>b</${opener}>c</${c}></div>`).join(''),
  ),
  ...[...voidElements].map((v) => `<span><${v} a=1>x<${v}/>y</${v}>z</span>`),
  '<p>a<p>b</p></p></p></br></BR><br/></img><DIV CLASS="Up">Up</div></span></table>',
  '<svg viewBox="0 0 1 1"><linearGradient/><foreignObject><p/>x<svg><path/></svg></foreignObject><g><path d="M0"/></g>',
  '<![CDATA[ in svg ]]></br></p><desc/><title>t</title><svg/></svg><div/>after<math><mi/><mo>+</mo><mrow/></math>',
  '</svg></svg></math><p/>html<![CDATA[ x > <b>y</b> ]]><!--[CDATA[ c ]]--><!doctype second><select><option>1<option>2',
  '<optgroup><option>3</select><dl><dt>t<dd>d</dl><table><thead><tr><th>h<td>d<tbody><tr><td>e<tfoot><td>f</table>',
  '<ruby>r<rt>t<rp>p</ruby>&nbsp;&lt;text&gt;&#169;&unknown;&amp<textarea>&lt;<b></textarea><xmp><b></xmp>',
  '</body></html><p>after the end<div><b class=x class=y>unclosed<i',
].join('\n');
