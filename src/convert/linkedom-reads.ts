// Two reads linkedom 0.18.14 makes costly, done cheaper on the same data (issue 33, the conversion's
// profile on trafilatura-eval):
//
// - `getAttribute('class')` goes through `className` → `classList.value`: it builds a DOMTokenList
//   (a Set of the tokens) per element, kept on the element, and joins it again on every call (~5 % of
//   conversion CPU, and garbage). Here the attribute node is read and normalised the way that list
//   does it (split on whitespace, empty and repeated tokens dropped, joined by one space); an element
//   whose classList already exists reads it, as before, so a list changed through `classList` reads
//   the same.
// - Walking the elements below a node through `lastElementChild`/`previousElementSibling` steps over
//   every text node sibling by sibling (~7 %). linkedom keeps a node's subtree as one linked list
//   (start tag, attributes, children, end marker), so `elementsBelow` follows that list once.
//
// Both rely on linkedom's internals, so they apply only to the exact sources audited here (a hash of
// them) and only when a self-test on a sample document gives the stock answers; otherwise linkedom
// is left as it is, `elementsBelow` walks siblings, and test/convert/linkedom-reads.test.ts fails so
// the change is looked at again. Like lazy-listeners.ts, the class read patches the linkedom module
// instance it imports, for every user of it in the process.

import { createHash } from 'node:crypto';
import { parseHTML } from 'linkedom';
import { isSpace } from './space.js';
import { lowerName } from './tag-name.js';
import { memoByValue } from './value-memo.js';

/** SHA-256 of the linkedom 0.18.14 sources the fast paths stand in for or rely on (auditedSources). */
export const AUDITED_READS = 'fbfc198fe0ead8a75f0e9ad9c29a28c100a02a66f94682435fb9bd0949430a4d';

const ELEMENT_NODE = 1;

interface Internals {
  next: symbol;
  end: symbol;
  classList: symbol;
  /** On a document: its type's rules; `ignoreCase` is true for HTML. */
  mime: symbol;
}

type Getter = () => unknown;

const getter = (proto: object, name: string): Getter | undefined => {
  for (let p: object | null = proto; p; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, name);
    if (d) return d.get;
  }
  return undefined;
};

const getterOwner = (proto: object, name: string): object | undefined => {
  for (let p: object | null = proto; p; p = Object.getPrototypeOf(p)) if (Object.getOwnPropertyDescriptor(p, name)) return p;
  return undefined;
};

function sampleDocument(): Document {
  return (
    parseHTML(
      '<!doctype html><html><head><title>t</title></head><body class=" a  b a\tc ">x<!-- c --><div id="d" class="x">' +
        '<p>one <b class="q">two</b> three</p><template><i>t</i></template><br>tail</div><ul><li>1</li><li>2</li></ul></body></html>',
    ) as unknown as { document: Document }
  ).document;
}

/** The linkedom sources the fast paths replace or read the structure of, as text. */
export function auditedSources(): string {
  const el = sampleDocument().body;
  const proto = Object.getPrototypeOf(el) as object;
  const elementProto = (() => {
    let p: object | null = proto;
    while (p && !Object.getOwnPropertyDescriptor(p, 'getAttributeNode')) p = Object.getPrototypeOf(p);
    return p;
  })();
  const list = Object.getPrototypeOf(el.classList) as object;
  return [
    String((elementProto as { getAttribute?: unknown } | null)?.getAttribute),
    String((elementProto as { getAttributeNode?: unknown } | null)?.getAttributeNode),
    String(getter(proto, 'className')),
    String(Object.getOwnPropertyDescriptor(getterOwner(proto, 'className') ?? {}, 'className')?.set),
    String(getter(proto, 'classList')),
    String(getter(list, 'value')),
    String(list.constructor),
    String(getter(proto, 'firstChild')),
    String(getter(proto, 'lastChild')),
    String(getter(proto, 'lastElementChild')),
    String(getter(proto, 'previousElementSibling')),
    String((elementProto as { closest?: unknown } | null)?.closest),
    String((elementProto as { querySelector?: unknown } | null)?.querySelector),
    String((elementProto as { querySelectorAll?: unknown } | null)?.querySelectorAll),
  ].join('\n');
}

let stockHash: string | undefined;

/** The hash of linkedom's sources as loaded (taken before the fast paths replace some of them). */
export function readsHash(): string {
  stockHash ??= createHash('sha256').update(auditedSources()).digest('hex');
  return stockHash;
}

/** linkedom's private symbols, found on a sample element by their descriptions. */
function findInternals(): Internals | undefined {
  const doc = sampleDocument();
  const own = Object.getOwnPropertySymbols(doc.body);
  const named = (d: string) => own.find((s) => s.description === d);
  const next = named('next');
  const end = named('end');
  const classList = named('classList');
  const mime = Object.getOwnPropertySymbols(doc).find((s) => s.description === 'mime');
  return next && end && classList && mime ? { next, end, classList, mime } : undefined;
}

/** The class attribute as linkedom's DOMTokenList spells it. */
export function normaliseClass(value: string): string {
  // A value already spelled so (most: words apart by one space, none repeated) is its own spelling:
  // one pass over it, no hash of a new string and no memo entry (the parser sets every class through
  // here). The others are split once per distinct value.
  return isSpelled(value) ? value : normaliseSpaced(value);
}

/** Whether `value`'s `length` characters at `a` and at `b` are the same. */
function sameRun(value: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (value.charCodeAt(a + k) !== value.charCodeAt(b + k)) return false;
  return true;
}

/** Where a class value's words start (isSpelled's scratch; more words than this take the split). */
const wordStarts = new Int32Array(16);

/**
 * Whether `value` is its DOMTokenList spelling already: words apart by one space (U+0020, no other
 * whitespace), none before the first or after the last, and no word twice.
 */
function isSpelled(value: string): boolean {
  const n = value.length;
  let words = 0;
  let start = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? value.charCodeAt(i) : 32;
    if (c !== 32) {
      if (isSpace(c)) return false;
      continue;
    }
    // A word ends here: it must not be empty (a space first, last or after another) unless the value is.
    if (i === start) return n === 0;
    if (i === n && words === 0) return true;
    if (words === wordStarts.length) return false;
    const length = i - start;
    for (let w = 0; w < words; w++) {
      const other = wordStarts[w]!;
      const otherEnd = w + 1 < words ? wordStarts[w + 1]! - 1 : start - 1;
      if (otherEnd - other === length && sameRun(value, other, start, length)) return false;
    }
    wordStarts[words++] = start;
    start = i + 1;
  }
  return true;
}

// Class values repeat across a page's elements: each distinct one with whitespace is split once.
const normaliseSpaced = memoByValue((value): string => {
  const tokens = new Set<string>();
  for (const t of value.split(/\s+/)) if (t) tokens.add(t);
  return [...tokens].join(' ');
});

function siblingWalk(root: ParentNode): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [];
  for (let c = root.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  while (stack.length > 0) {
    const el = stack.pop()!;
    out.push(el);
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  return out;
}

interface Linked {
  nodeType: number;
  [key: symbol]: Linked;
}

let internals: Internals | undefined;

function listWalk(root: ParentNode): Element[] {
  const { next, end } = internals!;
  const out: Element[] = [];
  const node = root as unknown as Linked;
  const stop = node[end];
  if (!stop) return siblingWalk(root);
  for (let n = node[next]; n && n !== stop; n = n[next]) if (n.nodeType === ELEMENT_NODE) out.push(n as unknown as Element);
  return out;
}

let walk: (root: ParentNode) => Element[] = siblingWalk;

/**
 * linkedom's list links (a node's `next`, an element's `end` marker) while the fast paths are in use,
 * for a pass that reads the whole node list itself (model/segment-page.ts); undefined otherwise.
 */
export function nodeListLinks(): { readonly next: symbol; readonly end: symbol } | undefined {
  return internals;
}

const ATTRIBUTE_NODE = 2;

/**
 * nodeListLinks when `doc` is an HTML document: there an attribute node's value, read off the list
 * after its element (attribute nodes first, `nodeType` 2), is what getAttribute answers for any name
 * but `class` (spelled as className spells it). Undefined otherwise (the caller asks getAttribute).
 */
export function htmlAttributeLinks(doc: Document | null | undefined): { readonly next: symbol } | undefined {
  if (!internals || !(doc as unknown as Record<symbol, { ignoreCase?: boolean } | undefined> | null)?.[internals.mime]?.ignoreCase)
    return undefined;
  return internals;
}

/** Two attributes' values as written, from readAttributePair: [0] the first name's, [1] the second's (null: none). */
export type AttributePair = [string | null, string | null];

/**
 * Fills `out` with the values of el's first `first` and first `second` attribute, as written, from one
 * walk over its attribute nodes (`links`: nodeListLinks or htmlAttributeLinks), where getAttribute
 * walks them once per name. The first attribute of a name counts, as in getAttributeNode.
 */
export function readAttributePair(
  el: Element,
  links: { readonly next: symbol },
  first: string,
  second: string,
  out: AttributePair,
): AttributePair {
  out[0] = null;
  out[1] = null;
  for (let a = (el as unknown as Linked)[links.next]; a && a.nodeType === ATTRIBUTE_NODE; a = a[links.next]) {
    const name = (a as unknown as Attr).name;
    if (name === first) out[0] ??= (a as unknown as Attr).value;
    else if (name === second) out[1] ??= (a as unknown as Attr).value;
  }
  return out;
}

/** An element's class, id and role as getAttribute and hasAttribute answer them (readNames). */
export interface ElementNames {
  /** getAttribute('class'): '' when there is none. */
  className: string;
  hasClass: boolean;
  id: string | null;
  role: string | null;
}

/** An ElementNames to fill (one per pass: readNames writes over it). */
export const elementNames = (): ElementNames => ({ className: '', hasClass: false, id: null, role: null });

/**
 * Fills `out` with el's class, id and role from one walk over its attribute nodes, where getAttribute
 * walks them once per name (and the class through className): the rule passes ask all three of most
 * elements they look at. The first attribute of a name counts, as in getAttributeNode; the class is
 * spelled as className spells it. Outside an HTML document, or with the fast paths off, it asks
 * getAttribute.
 */
export function readNames(el: Element, out: ElementNames): ElementNames {
  const doc = el.ownerDocument as unknown as Record<symbol, { ignoreCase?: boolean } | undefined> | null;
  if (!internals || !doc?.[internals.mime]?.ignoreCase) {
    out.className = el.getAttribute('class') ?? '';
    out.hasClass = el.hasAttribute('class');
    out.id = el.getAttribute('id');
    out.role = el.getAttribute('role');
    return out;
  }
  const { next, classList } = internals;
  let cls: Attr | null = null;
  let id: Attr | null = null;
  let role: Attr | null = null;
  for (let a = (el as unknown as Linked)[next]; a && a.nodeType === ATTRIBUTE_NODE; a = a[next]) {
    const attr = a as unknown as Attr;
    const name = attr.name;
    if (name === 'class') cls ??= attr;
    else if (name === 'id') id ??= attr;
    else if (name === 'role') role ??= attr;
  }
  const list = (el as unknown as Record<symbol, DOMTokenList | null>)[classList];
  out.className = list ? list.value : cls ? normaliseClass(cls.value) : '';
  out.hasClass = cls !== null;
  out.id = id === null ? null : id.value;
  out.role = role === null ? null : role.value;
  return out;
}

/** Every element below `root` in document order (what `querySelectorAll('*')` returns). */
export function elementsBelow(root: ParentNode): Element[] {
  return walk(root);
}

/**
 * The first element below `root` in document order that passes `test`, or null: `elementsBelow(root).find(test)`
 * without building the array (a page's `<base>` is near its top, or absent).
 */
export function firstElementBelow(root: ParentNode, test: (el: Element) => boolean): Element | null {
  if (!internals) return siblingWalk(root).find(test) ?? null;
  const { next, end } = internals;
  const node = root as unknown as Linked;
  const stop = node[end];
  if (!stop) return siblingWalk(root).find(test) ?? null;
  for (let n = node[next]; n && n !== stop; n = n[next])
    if (n.nodeType === ELEMENT_NODE && test(n as unknown as Element)) return n as unknown as Element;
  return null;
}

const COMMENT_NODE = 8;

/**
 * The comments below `root` in document order, none inside an element `skip` accepts, read off
 * linkedom's node list (no sibling getters). Undefined when the fast paths are off (the caller walks).
 */
export function commentsBelow(root: Node, skip: (el: Element) => boolean): Comment[] | undefined {
  if (!internals) return undefined;
  const { next, end } = internals;
  const node = root as unknown as Linked;
  const stop = node[end];
  if (!stop) return undefined;
  const out: Comment[] = [];
  for (let n = node[next]; n && n !== stop; n = n[next]) {
    if (n.nodeType === COMMENT_NODE) out.push(n as unknown as Comment);
    else if (n.nodeType === ELEMENT_NODE && skip(n as unknown as Element)) n = n[end] ?? n;
  }
  return out;
}

const NODE_END = -1;

/**
 * How deep the deepest element below `root` sits (its children at 1), read off linkedom's list in one
 * pass: an element's start goes one level down, its end marker one up. Undefined when the fast paths
 * are off (the caller walks the tree).
 */
export function deepestElement(root: ParentNode): number | undefined {
  if (!internals) return undefined;
  const { next, end } = internals;
  const node = root as unknown as Linked;
  const stop = node[end];
  if (!stop) return undefined;
  let depth = 0;
  let max = 0;
  for (let n = node[next]; n && n !== stop; n = n[next]) {
    if (n.nodeType === ELEMENT_NODE) {
      if (++depth > max) max = depth;
    } else if (n.nodeType === NODE_END) depth--;
  }
  return max;
}

/**
 * elementsBelow(root) and deepestElement(inner), `inner` below `root`, from one pass over linkedom's
 * list (the page's element list and its body's depth, asked one after the other). Undefined when the
 * fast paths are off.
 */
export function elementsAndDepth(root: ParentNode, inner: Element): { elements: Element[]; depth: number } | undefined {
  if (!internals) return undefined;
  const { next, end } = internals;
  const stop = (root as unknown as Linked)[end];
  const innerEnd = (inner as unknown as Linked)[end];
  if (!stop || !innerEnd) return undefined;
  const elements: Element[] = [];
  let depth = 0;
  let base = -1; // inner's depth while inside it
  let max = 0;
  for (let n = (root as unknown as Linked)[next]; n && n !== stop; n = n[next]) {
    if (n.nodeType === ELEMENT_NODE) {
      depth++;
      elements.push(n as unknown as Element);
      if (base >= 0) {
        if (depth - base > max) max = depth - base;
      } else if (n === (inner as unknown as Linked)) base = depth;
    } else if (n.nodeType === NODE_END) {
      if (n === innerEnd) base = -1;
      depth--;
    }
  }
  return { elements, depth: max };
}

// Type selectors alone ("table", "noscript, template"), the ones the converter asks in loops: linkedom
// compiles the selector with css-select on every closest/querySelector call. In an HTML document
// such a selector matches an element whose lower-cased local name is one of the names.
const TYPE_LIST = /^\s*[a-zA-Z][a-zA-Z0-9]*(?:\s*,\s*[a-zA-Z][a-zA-Z0-9]*)*\s*$/;
const typeLists = new Map<string, ReadonlySet<string> | null>();

function typeNames(selectors: unknown, el: Element): ReadonlySet<string> | null {
  if (typeof selectors !== 'string') return null;
  const doc = el.ownerDocument as unknown as Record<symbol, { ignoreCase?: boolean } | undefined> | null;
  if (!doc?.[internals!.mime]?.ignoreCase) return null;
  let names = typeLists.get(selectors);
  if (names === undefined) {
    names = TYPE_LIST.test(selectors) ? new Set(selectors.split(',').map((n) => n.trim().toLowerCase())) : null;
    if (typeLists.size >= 256) typeLists.clear();
    typeLists.set(selectors, names);
  }
  return names;
}

/** The stock answers on the sample document: element order and class reads. */
function sampleAnswers(): string {
  const doc = sampleDocument();
  const order = (root: ParentNode) =>
    elementsBelow(root)
      .map((e) => e.localName)
      .join(',');
  const classes = elementsBelow(doc).map((e) => `${e.getAttribute('class')}|${(e as HTMLElement).className}`);
  const changed = doc.querySelector('b')!;
  changed.classList.add('r', 'q');
  const added = `${changed.getAttribute('class')}|${changed.className}`;
  changed.setAttribute('class', 'z  z y');
  const made = doc.createElement('span');
  made.className = ' m  n m ';
  const named = doc.querySelector('p')!;
  named.setAttribute('class', 'k\tk  l');
  const direct = doc.querySelector('li')!;
  direct.className = 'd1  d2';
  direct.getAttributeNode('class')!.value = 'd3 d3';
  return [
    order(doc),
    order(doc.body),
    order(doc.querySelector('#d')!),
    classes.join(';'),
    added,
    changed.getAttribute('class'),
    `${made.getAttribute('class')}|${made.className}|${Array.from(made.classList as unknown as Iterable<string>).join(',')}`,
    `${named.getAttribute('class')}|${named.className}|${Array.from(named.classList as unknown as Iterable<string>).join(',')}`,
    `${direct.getAttribute('class')}|${direct.className}|${direct.classList.contains('d1')}`,
    [
      doc.querySelector('i')?.closest('template, ul')?.localName,
      doc.querySelector('b')!.closest('P, div')?.localName,
      doc.querySelector('b')!.closest('ul'),
    ],
    [
      doc.body.querySelector('I'),
      doc.querySelector('li')?.textContent,
      doc.body.querySelectorAll('li, B, i').length,
      Array.isArray(doc.querySelectorAll('p')),
    ],
    doc.documentElement.outerHTML,
  ].join('\n');
}

let applied: boolean | undefined;

/** The prototype above `proto` that defines `name` (querySelector lives on linkedom's ParentNode). */
function parentProto(proto: object, name: string): object {
  return getterOwner(proto, name)!;
}

/**
 * Applies both fast paths once; true when they are in use. False (and linkedom untouched) for a
 * linkedom whose sources are not the audited ones or that answers the self-test differently.
 */
export function applyLinkedomReads(): boolean {
  if (applied !== undefined) return applied;
  applied = false;
  const found = readsHash() === AUDITED_READS ? findInternals() : undefined;
  if (!found) return false;
  const proto = (() => {
    let p: object | null = Object.getPrototypeOf(sampleDocument().body) as object;
    while (p && !Object.getOwnPropertyDescriptor(p, 'getAttributeNode')) p = Object.getPrototypeOf(p);
    return p;
  })();
  if (!proto) return false;
  const stock = sampleAnswers();
  const original = Object.getOwnPropertyDescriptor(proto, 'getAttribute')!;
  const originalClassName = Object.getOwnPropertyDescriptor(proto, 'className')!;
  const classList = found.classList;
  const getAttributeNode = (proto as { getAttributeNode: (this: Element, name: string) => Attr | null }).getAttributeNode;
  const stockGetAttribute = original.value as (this: Element, name: string) => string | null;
  function className(this: Element): string {
    const list = (this as unknown as Record<symbol, DOMTokenList | null>)[classList];
    if (list) return list.value;
    const attr = getAttributeNode.call(this, 'class');
    return attr ? normaliseClass(attr.value) : '';
  }
  Object.defineProperty(proto, 'getAttribute', {
    ...original,
    value: function getAttribute(this: Element, name: string): string | null {
      return name === 'class' ? className.call(this) : stockGetAttribute.call(this, name);
    },
  });
  const stockSetClassName = originalClassName.set!;
  // The parser sets every class through `className =`, which builds the element's DOMTokenList only
  // to write the normalised value back to the attribute: written directly while there is no list.
  function setClassName(this: Element, value: unknown): void {
    if (!(this as unknown as Record<symbol, unknown>)[classList]) {
      const attr = getAttributeNode.call(this, 'class');
      if (attr) {
        attr.value = normaliseClass(String(value));
        return;
      }
    }
    stockSetClassName.call(this, value);
  }
  Object.defineProperty(proto, 'className', { ...originalClassName, get: className, set: setClassName });
  const selectorMethods = ['closest', 'querySelector', 'querySelectorAll'] as const;
  const stockSelectors = selectorMethods.map(
    (name) => Object.getOwnPropertyDescriptor(name === 'closest' ? proto : parentProto(proto, name), name)!,
  );
  const [stockClosest, stockQuery, stockQueryAll] = stockSelectors.map((d) => d.value as (this: Element, s: string) => unknown);
  const { next, end } = found;
  const NodeList = (stockQueryAll!.call(sampleDocument().body, 'p') as object).constructor as new () => Element[];
  const lower = (e: Element) => lowerName(e.localName);
  const overrides = {
    closest(this: Element, selectors: string): Element | null {
      const names = typeNames(selectors, this);
      if (!names) return stockClosest!.call(this, selectors) as Element | null;
      let e: Element | null = this;
      while (e && !names.has(lower(e))) e = e.parentElement;
      return e;
    },
    querySelector(this: Element, selectors: string): Element | null {
      const names = typeNames(selectors, this);
      if (!names) return stockQuery!.call(this, selectors) as Element | null;
      // linkedom's walk: the list below this node, a template's content skipped.
      const stop = (this as unknown as Linked)[end];
      for (let n: Linked | undefined = (this as unknown as Linked)[next]; n && n !== stop; ) {
        const el = n as unknown as Element;
        if (n.nodeType === ELEMENT_NODE && names.has(lower(el))) return el;
        n = n.nodeType === ELEMENT_NODE && el.localName === 'template' ? n[end] : n[next];
      }
      return null;
    },
    querySelectorAll(this: Element, selectors: string): Element[] {
      const names = typeNames(selectors, this);
      if (!names) return stockQueryAll!.call(this, selectors) as Element[];
      const out = new NodeList();
      const stop = (this as unknown as Linked)[end];
      for (let n: Linked | undefined = (this as unknown as Linked)[next]; n && n !== stop; ) {
        const el = n as unknown as Element;
        if (n.nodeType === ELEMENT_NODE && names.has(lower(el))) out.push(el);
        n = n.nodeType === ELEMENT_NODE && el.localName === 'template' ? n[end] : n[next];
      }
      return out;
    },
  };
  const owners = selectorMethods.map((name) => (name === 'closest' ? proto : parentProto(proto, name)));
  selectorMethods.forEach((name, i) => Object.defineProperty(owners[i]!, name, { ...stockSelectors[i]!, value: overrides[name] }));
  internals = found;
  walk = listWalk;
  if (sampleAnswers() !== stock) {
    Object.defineProperty(proto, 'getAttribute', original);
    Object.defineProperty(proto, 'className', originalClassName);
    selectorMethods.forEach((name, i) => Object.defineProperty(owners[i]!, name, stockSelectors[i]!));
    internals = undefined;
    walk = siblingWalk;
    return false;
  }
  applied = true;
  return true;
}

/** True when the fast paths are in use. */
export function linkedomReadsApplied(): boolean {
  return applied === true;
}
