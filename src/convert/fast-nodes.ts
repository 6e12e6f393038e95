// linkedom 0.18.14 builds every parsed node through a class chain of five constructors
// (HTMLDivElement → HTMLElement → Element → ParentNode → Node → EventTarget): EventTarget's still
// allocates its listener Map (lazy-listeners.ts only stops storing it), and ParentNode's end marker
// is an object literal with computed symbol keys, which V8 builds key by key. On trafilatura-eval
// those constructors were ~20 % of the parse and the Maps a large part of its garbage.
//
// Here the document's createElement, createElementNS (for SVG), createTextNode, createComment and
// createAttribute (what linkedom's parser calls per node) build the same objects with one plain
// constructor function per class: the same prototype, the same own properties in the same order
// with the same values, the end marker from a constructor of its own (its prototype
// Object.prototype, as the literal's).
// Guarded like lazy-listeners.ts: only for the audited sources of every constructor replaced, only
// when the listener change is on (a node built here has no listener Map), and each element class is
// checked on its first use (its constructor adds nothing; a stock instance has exactly the expected
// own properties) or left to linkedom. `setFastNodes(false)` puts linkedom's methods back.

import { createHash } from 'node:crypto';
import { parseHTML } from 'linkedom';
import { lazyListenersApplied } from './lazy-listeners.js';

/** SHA-256 of the constructor classes' (SVGElement's too) and document factories' sources in linkedom 0.18.14. */
export const AUDITED_NODE_SOURCES = 'a45d76921295251769fe08abffb00566d6566ad9fbee6ecb9977685eca30afd2';

type Doc = Record<PropertyKey, unknown>;
type Factory = new (doc: Doc, name: string) => object;
type CreateElement = (this: Doc, localName: string, options?: unknown) => object;
type CreateElementNS = (this: Doc, namespace: string, localName: string, options?: unknown) => object;

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

interface Linkedom {
  documentProto: Record<string, unknown>;
  stock: {
    createElement: CreateElement;
    createElementNS: CreateElementNS;
    createTextNode: unknown;
    createComment: unknown;
    createAttribute: unknown;
  };
  htmlElementProto: object;
  svgElementProto: object;
  hash: string;
  symbols: Record<'next' | 'prev' | 'end' | 'start' | 'private' | 'classList' | 'dataset' | 'style' | 'value' | 'changed', symbol>;
  customElements: symbol;
  nodeEnd: number;
}

function symbolNamed(obj: object, description: string): symbol | undefined {
  return Object.getOwnPropertySymbols(obj).find((s) => s.description === description);
}

/** linkedom's pieces, read off a sample document; undefined when they are not where 0.18.14 has them. */
function inspect(parse: typeof parseHTML = parseHTML): Linkedom | undefined {
  const { document } = parse('<html><body><div class="a">t<!--c--></div></body></html>') as unknown as { document: Doc };
  const documentProto = Object.getPrototypeOf(document) as Record<string, unknown>;
  const div = (document as unknown as Document).querySelector('div') as unknown as Doc;
  const text = (div as unknown as Element).firstChild as unknown as Doc;
  const comment = (div as unknown as Element).lastChild as unknown as Doc;
  const attr = (div as unknown as Element).getAttributeNode('class') as unknown as Doc;
  if (!div || !text || !comment || !attr) return undefined;
  const chain: { name: string }[] = [];
  for (let p = Object.getPrototypeOf(div); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) chain.push(p.constructor);
  // A <div> is a plain HTMLElement in 0.18.14 (no class of its own registered).
  const names = chain.map((c) => c.name).join(' ');
  if (names !== 'HTMLElement Element ParentNode Node DOMEventTarget') return undefined;
  const textChain = [Object.getPrototypeOf(text).constructor, Object.getPrototypeOf(Object.getPrototypeOf(text)).constructor];
  const commentClass = Object.getPrototypeOf(comment).constructor;
  const attrClass = Object.getPrototypeOf(attr).constructor;
  const svgElementProto = Object.getPrototypeOf((document as unknown as Document).createElementNS(SVG_NAMESPACE, 'path')) as object;
  const find = (o: object, d: string) => symbolNamed(o, d);
  const s = {
    next: find(div, 'next'),
    prev: find(div, 'prev'),
    end: find(div, 'end'),
    private: find(div, 'private'),
    classList: find(div, 'classList'),
    dataset: find(div, 'dataset'),
    style: find(div, 'style'),
    value: find(text, 'value'),
    changed: find(attr, 'changed'),
    start: undefined as symbol | undefined,
  };
  if (s.end) s.start = find(div[s.end] as object, 'start');
  const customElements = find(document, 'CustomElements');
  if (Object.values(s).some((v) => v === undefined) || !customElements) return undefined;
  const stock = {
    createElement: documentProto['createElement'] as CreateElement,
    createElementNS: documentProto['createElementNS'] as CreateElementNS,
    createTextNode: documentProto['createTextNode'],
    createComment: documentProto['createComment'],
    createAttribute: documentProto['createAttribute'],
  };
  const sources = [
    ...chain.slice(0, 4),
    ...textChain,
    commentClass,
    attrClass,
    stock.createElement,
    stock.createTextNode,
    stock.createComment,
    stock.createAttribute,
    svgElementProto.constructor,
    stock.createElementNS,
  ].map(String);
  return {
    documentProto,
    stock,
    htmlElementProto: Object.getPrototypeOf(div),
    svgElementProto,
    hash: createHash('sha256').update(sources.join('\n')).digest('hex'),
    symbols: s as Linkedom['symbols'],
    customElements,
    nodeEnd: (div[s.end!] as Doc)['nodeType'] as number,
  };
}

function factories(l: Linkedom) {
  const { next: NEXT, prev: PREV, end: END, start: START, private: PRIVATE, classList: CLASS_LIST } = l.symbols;
  const { dataset: DATASET, style: STYLE, value: VALUE, changed: CHANGED } = l.symbols;
  const NODE_END = l.nodeEnd;

  // ParentNode's end marker: { [NEXT], [PREV], [START], nodeType, ownerDocument, parentNode }.
  function End(this: Doc, start: Doc, doc: Doc) {
    this[NEXT] = null;
    this[PREV] = start;
    this[START] = start;
    this['nodeType'] = NODE_END;
    this['ownerDocument'] = doc;
    this['parentNode'] = null;
  }
  End.prototype = Object.prototype;
  const EndMarker = End as unknown as new (start: Doc, doc: Doc) => Doc;

  // One constructor per element class: its own V8 map, as each class has with linkedom's constructors.
  const elementFactory = (proto: object): Factory => {
    function FastElement(this: Doc, doc: Doc, localName: string) {
      const end = new EndMarker(this, doc);
      // Node, ParentNode, Element: the same properties in the same order.
      this['ownerDocument'] = doc;
      this['localName'] = localName;
      this['nodeType'] = 1;
      this['parentNode'] = null;
      this[NEXT] = end;
      this[PREV] = null;
      this[PRIVATE] = null;
      this[END] = end;
      this[CLASS_LIST] = null;
      this[DATASET] = null;
      this[STYLE] = null;
    }
    FastElement.prototype = proto;
    return FastElement as unknown as Factory;
  };

  // SVGElement: an element and its `ownerSVGElement` (null; the parser sets it after). Its stores are written out,
  // not shared with FastElement through a helper: V8 sizes a constructor's objects by the `this.x =` it sees in
  // its body, and with a helper each element would keep its fields out of line (+22 KiB a traf page, sampled).
  const svgFactory = (proto: object): Factory => {
    function FastSVGElement(this: Doc, doc: Doc, localName: string) {
      const end = new EndMarker(this, doc);
      this['ownerDocument'] = doc;
      this['localName'] = localName;
      this['nodeType'] = 1;
      this['parentNode'] = null;
      this[NEXT] = end;
      this[PREV] = null;
      this[PRIVATE] = null;
      this[END] = end;
      this[CLASS_LIST] = null;
      this[DATASET] = null;
      this[STYLE] = null;
      this['ownerSVGElement'] = null;
    }
    FastSVGElement.prototype = proto;
    return FastSVGElement as unknown as Factory;
  };

  const characterData = (proto: object, localName: string, nodeType: number) => {
    function FastCharacterData(this: Doc, doc: Doc, data: unknown) {
      this['ownerDocument'] = doc;
      this['localName'] = localName;
      this['nodeType'] = nodeType;
      this['parentNode'] = null;
      this[NEXT] = null;
      this[PREV] = null;
      this[VALUE] = String(data);
    }
    FastCharacterData.prototype = proto;
    return FastCharacterData as unknown as new (
      doc: Doc,
      data: unknown,
    ) => Doc;
  };

  const attrFactory = (proto: object) => {
    function FastAttr(this: Doc, doc: Doc, name: unknown) {
      this['ownerDocument'] = doc;
      this['localName'] = name;
      this['nodeType'] = 2;
      this['parentNode'] = null;
      this[NEXT] = null;
      this[PREV] = null;
      this['ownerElement'] = null;
      this['name'] = String(name);
      this[VALUE] = '';
      this[CHANGED] = false;
    }
    FastAttr.prototype = proto;
    return FastAttr as unknown as new (
      doc: Doc,
      name: unknown,
    ) => Doc;
  };

  return { elementFactory, svgFactory, characterData, attrFactory, EndMarker };
}

/** Own keys and primitive values of a node and of its end marker, for comparing two builds. */
function shape(node: Doc, end: symbol): string {
  const describe = (o: Doc) =>
    `${Object.getPrototypeOf(o) === Object.prototype ? 'Object' : (Object.getPrototypeOf(o)?.constructor?.name ?? 'null')}{${Reflect.ownKeys(
      o,
    )
      .map((k) => {
        const v = o[k];
        const shown =
          v === null || typeof v !== 'object'
            ? JSON.stringify(v)
            : v === node
              ? 'self'
              : v === o['ownerDocument']
                ? 'doc'
                : v === node[end]
                  ? 'end'
                  : 'object';
        return `${String(k)}:${shown}`;
      })
      .join(',')}}`;
  return describe(node) + (node[end] ? describe(node[end] as Doc) : '');
}

/** Class constructors with nothing but `super(ownerDocument, localName)` (or none of their own). */
const TRIVIAL = /^constructor\(ownerDocument, localName(?: ?= ?[\w'"]+)?\) \{\s*super\(ownerDocument, localName\);\s*\}$/;
function trivialConstructors(proto: object, upTo: object): boolean {
  for (let p = proto; p !== upTo; p = Object.getPrototypeOf(p)) {
    if (!p || p === Object.prototype) return false;
    const source = String((p as { constructor: unknown }).constructor);
    const at = source.search(/\bconstructor\s*\(/);
    if (at < 0) continue;
    if (source.indexOf('constructor', at + 1) >= 0) return false;
    const close = source.indexOf('}', at);
    if (!TRIVIAL.test(source.slice(at, close + 1))) return false;
  }
  return true;
}

const NAMES_CAP = 2048;

let state: { l: Linkedom; installed: Record<string, unknown> } | undefined;
let checked = false;

function prepare(): typeof state {
  if (checked) return state;
  checked = true;
  if (!lazyListenersApplied()) return undefined;
  const l = inspect();
  if (!l || l.hash !== AUDITED_NODE_SOURCES) return undefined;
  const { elementFactory, svgFactory, characterData, attrFactory } = factories(l);
  const END = l.symbols.end;
  const stock = l.stock;
  const byProto = new Map<object, Factory | null>();
  const byName = new Map<string, Factory | null>();
  const CUSTOM = l.customElements;

  const factoryFor = (doc: Doc, localName: string): Factory | null => {
    // A stock element tells the class linkedom picks for this name; its class is checked once.
    const sample = stock.createElement.call(doc, localName) as Doc;
    const proto = Object.getPrototypeOf(sample) as object;
    let factory = byProto.get(proto);
    if (factory === undefined) {
      factory = trivialConstructors(proto, l.htmlElementProto) ? elementFactory(proto) : null;
      if (factory && shape(new factory(doc, localName) as Doc, END) !== shape(sample, END)) factory = null;
      byProto.set(proto, factory);
    }
    if (byName.size < NAMES_CAP) byName.set(localName, factory);
    return factory;
  };

  const installed: Record<string, unknown> = {
    createElement(this: Doc, localName: string, options?: unknown): object {
      if (options !== undefined || (this[CUSTOM] as { active: boolean }).active || typeof localName !== 'string')
        return stock.createElement.call(this, localName, options);
      let factory = byName.get(localName);
      if (factory === undefined) factory = factoryFor(this, localName);
      return factory ? new factory(this, localName) : stock.createElement.call(this, localName);
    },
  };
  // SVG elements, Text, Comment and Attr: checked once here against a stock build.
  const { document } = parseHTML('<p>x<!--y--></p>') as unknown as { document: Doc };
  const cases: [Doc, () => Doc][] = [];
  const stockSvg = stock.createElementNS.call(document, SVG_NAMESPACE, 'path') as Doc;
  const SVGElement = svgFactory(Object.getPrototypeOf(stockSvg));
  cases.push([stockSvg, () => new SVGElement(document, 'path') as Doc]);
  const stockText = (stock.createTextNode as (this: Doc, d: string) => Doc).call(document, 'x');
  const stockComment = (stock.createComment as (this: Doc, d: string) => Doc).call(document, 'y');
  const stockAttr = (stock.createAttribute as (this: Doc, n: string) => Doc).call(document, 'id');
  const Text = characterData(Object.getPrototypeOf(stockText), '#text', 3);
  const Comment = characterData(Object.getPrototypeOf(stockComment), '#comment', 8);
  const Attr = attrFactory(Object.getPrototypeOf(stockAttr));
  cases.push([stockText, () => new Text(document, 'x')]);
  cases.push([stockComment, () => new Comment(document, 'y')]);
  cases.push([stockAttr, () => new Attr(document, 'id')]);
  for (const [sample, build] of cases) if (shape(build(), END) !== shape(sample, END)) return undefined;
  installed['createElementNS'] = function (this: Doc, namespace: string, localName: string, options?: unknown) {
    // linkedom's: an SVGElement (no custom elements, no options), or createElement's element.
    return namespace === SVG_NAMESPACE ? new SVGElement(this, localName) : stock.createElementNS.call(this, namespace, localName, options);
  };
  installed['createTextNode'] = function (this: Doc, data: unknown) {
    return new Text(this, data === undefined ? '' : data);
  };
  installed['createComment'] = function (this: Doc, data: unknown) {
    return new Comment(this, data === undefined ? '' : data);
  };
  installed['createAttribute'] = function (this: Doc, name: unknown) {
    return new Attr(this, name);
  };
  state = { l, installed };
  return state;
}

let on = false;

/**
 * Builds parsed nodes with the plain constructors (true) or linkedom's (false); true when the fast
 * constructors are in use. Nothing changes for a linkedom whose sources are not the audited ones.
 */
export function setFastNodes(enable: boolean): boolean {
  const s = prepare();
  if (!s) return false;
  const target = s.l.documentProto;
  const methods = enable ? s.installed : s.l.stock;
  for (const [name, fn] of Object.entries(methods))
    Object.defineProperty(target, name, { value: fn, writable: true, configurable: true, enumerable: false });
  on = enable;
  return on;
}

export function fastNodesApplied(): boolean {
  return on;
}

/** The hash AUDITED_NODE_SOURCES is compared with, of this (or another) linkedom instance. */
export function nodeSourcesHash(parse: typeof parseHTML = parseHTML): string | undefined {
  return inspect(parse)?.hash;
}

/** linkedom's node-list symbols (and the document's custom-elements one), read off a sample document. */
export function linkedomSymbols(parse: typeof parseHTML = parseHTML): (Linkedom['symbols'] & { customElements: symbol }) | undefined {
  const l = inspect(parse);
  return l && { ...l.symbols, customElements: l.customElements };
}
