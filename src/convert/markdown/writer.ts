// websift's Markdown writer: turndown 7.2.5's conversion (lib/turndown.cjs.js: collapseWhitespace,
// process, replacementForNode, join, and Node's isBlank and flankingWhitespace) run with the service's
// own rules, giving the same Markdown, in one linear pass. turndown reads `textContent` of every
// element (its blank test) and of every inline one again (its edge whitespace), and looks for void
// and "meaningful when blank" descendants with 27 `getElementsByTagName` walks per blank element:
// time in the element's depth per text character. Here each element's text is summed up once, bottom
// up (its edges, whether it is all whitespace, whether such a descendant exists), tag names are read
// once per element, and no properties are added to the DOM's nodes.

import type TurndownService from 'turndown';
import { isSpace } from '../space.js';

export interface Rule {
  filter: unknown;
  replacement: (content: string, node: Node, options: TurndownService.Options) => string;
}
interface Rules {
  options: TurndownService.Options;
  array: Rule[];
  _keep: Rule[];
  _remove: Rule[];
  blankRule: Rule;
  defaultRule: Rule;
}

/** Rules whose replacement never reads the content: their children are not converted. */
export const IGNORES_CONTENT = new WeakSet<object>();

/** Newlines written before and after a wrapping rule's content. */
export type Wrap = readonly [before: number, after: number];
const WRAPS = new WeakMap<object, (el: Element) => Wrap>();

/**
 * A rule whose Markdown is its content between newlines (a paragraph, a list): the writer adds them
 * itself, knowing the content's edges, where calling the replacement would leave a rope to read.
 */
export function wrappingRule(filter: TurndownService.Filter, wrap: (el: Element) => Wrap): TurndownService.Rule {
  const rule: TurndownService.Rule = {
    filter,
    replacement: (content, node) => {
      const [before, after] = wrap(node as Element);
      return newlines(before) + content + newlines(after);
    },
  };
  WRAPS.set(rule, wrap);
  return rule;
}

/** Whether `rule` was made by wrappingRule. */
export const isWrappingRule = (rule: object): boolean => WRAPS.has(rule);

// turndown's element lists (by nodeName, upper-cased in an HTML document).
const BLOCK = new Set(
  'ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES NOSCRIPT OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL'.split(
    ' ',
  ),
);
const VOID = new Set('AREA BASE BR COL COMMAND EMBED HR IMG INPUT KEYGEN LINK META PARAM SOURCE TRACK WBR'.split(' '));
const MEANINGFUL_WHEN_BLANK = new Set('A TABLE THEAD TBODY TFOOT TH TD IFRAME SCRIPT AUDIO VIDEO'.split(' '));

interface Name {
  upper: string;
  lower: string;
  block: boolean;
  void: boolean;
  meaningful: boolean;
}
// Per name; bounded, as pages bring their own custom element names. In an HTML document (linkedom's
// `nodeName` upper-cases `localName` on every read, a new string) the key is the local name.
const names = new Map<string, Name>();
let htmlNames = true;
function nameOf(el: Element): Name {
  const key = htmlNames ? el.localName : el.nodeName;
  let n = names.get(key);
  if (n === undefined) {
    if (names.size > 2_000) names.clear();
    const upper = el.nodeName;
    n = { upper, lower: upper.toLowerCase(), block: BLOCK.has(upper), void: VOID.has(upper), meaningful: MEANINGFUL_WHEN_BLANK.has(upper) };
    names.set(key, n);
  }
  return n;
}

/** `core` with `lead` newlines before it and `trail` after (an empty core: `lead` newlines). */
function withNewlines(core: string, lead: number, trail: number): string {
  if (core === '') return newlines(lead);
  return lead === 0 && trail === 0 ? core : newlines(lead) + core + newlines(trail);
}

const newlines = (n: number) => (n === 0 ? '' : n === 1 ? '\n' : n === 2 ? '\n\n' : '\n'.repeat(n));

/** The number of '\n' at the start of `s`. */
function leadingNewlines(s: string): number {
  let i = 0;
  while (s.charCodeAt(i) === 10) i++;
  return i;
}

/** The number of '\n' at the end of `s`. */
function trailingNewlines(s: string): number {
  let i = s.length;
  while (i > 0 && s.charCodeAt(i - 1) === 10) i--;
  return s.length - i;
}

const isAsciiSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** An element's `textContent`, summed up: what turndown's tests read of it. */
interface Summary {
  /** First and last character ('' when the text is empty). */
  first: string;
  last: string;
  /** Only `\s` (or empty). */
  allSpace: boolean;
  /** The leading and trailing `\s` runs (each the whole text when it is all space). */
  lead: string;
  trail: string;
  /** A void or "meaningful when blank" element below it. */
  hasVoidOrMeaningful: boolean;
}

// Per service's rules, per name: the rules whose filter may match it, in turndown's order. Kept across
// pages (built per page, it was most of the writer's own garbage); made again when a rule is added or
// removed, and bounded like `names`.
const candidateLists = new WeakMap<Rules, { array: Rule[]; count: number; byName: Map<string, Rule[]> }>();
function candidatesFor(rules: Rules): Map<string, Rule[]> {
  const count = rules.array.length + rules._keep.length + rules._remove.length;
  let known = candidateLists.get(rules);
  if (known === undefined || known.array !== rules.array || known.count !== count || known.byName.size > 2_000) {
    known = { array: rules.array, count, byName: new Map() };
    candidateLists.set(rules, known);
  }
  return known.byName;
}

class Writer {
  private readonly summaries = new Map<Node, Summary>();
  private readonly candidates: Map<string, Rule[]>;
  private readonly removed: Set<Rule>;

  constructor(
    private readonly rules: Rules,
    private readonly escapeText: (s: string) => string,
  ) {
    this.removed = new Set(rules._remove);
    this.candidates = candidatesFor(rules);
  }

  summary(el: Element): Summary {
    const known = this.summaries.get(el);
    if (known !== undefined) return known;
    let first = '';
    let last = '';
    let allSpace = true;
    let lead = '';
    let trail = '';
    let hasVoidOrMeaningful = false;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      const type = c.nodeType;
      let pFirst: string;
      let pLast: string;
      let pAll: boolean;
      let pLead: string;
      let pTrail: string;
      if (type === 3 || type === 4) {
        const d = (c as CharacterData).data;
        if (d === '') continue;
        pFirst = d[0]!;
        pLast = d[d.length - 1]!;
        let i = 0;
        while (i < d.length && isSpace(d.charCodeAt(i))) i++;
        pAll = i === d.length;
        if (pAll) {
          pLead = d;
          pTrail = d;
        } else {
          pLead = i === 0 ? '' : d.slice(0, i);
          let j = d.length;
          while (isSpace(d.charCodeAt(j - 1))) j--;
          pTrail = j === d.length ? '' : d.slice(j);
        }
      } else if (type === 1) {
        const n = nameOf(c as Element);
        const s = this.summary(c as Element);
        if (n.void || n.meaningful || s.hasVoidOrMeaningful) hasVoidOrMeaningful = true;
        if (s.first === '') continue;
        pFirst = s.first;
        pLast = s.last;
        pAll = s.allSpace;
        pLead = s.lead;
        pTrail = s.trail;
      } else continue;
      if (first === '') first = pFirst;
      last = pLast;
      if (allSpace) lead += pLead;
      trail = pAll ? trail + pTrail : pTrail;
      allSpace &&= pAll;
    }
    const s: Summary = { first, last, allSpace, lead, trail, hasVoidOrMeaningful };
    this.summaries.set(el, s);
    return s;
  }

  /** turndown's `Rules.forNode` after its blank test: the same rules, tried in the same order. */
  ruleFor(el: Element, lower: string): Rule {
    let list = this.candidates.get(lower);
    if (list === undefined) {
      list = [];
      for (const rule of [...this.rules.array, ...this.rules._keep, ...this.rules._remove]) {
        const f = rule.filter;
        if (typeof f === 'function' || f === lower || (Array.isArray(f) && f.indexOf(lower) > -1)) list.push(rule);
        else if (typeof f !== 'string' && !Array.isArray(f)) throw new TypeError('`filter` needs to be a string, array, or function');
      }
      this.candidates.set(lower, list);
    }
    for (const rule of list) {
      const f = rule.filter;
      if (typeof f !== 'function' || f.call(rule, el, this.rules.options)) return rule;
    }
    return this.rules.defaultRule;
  }

  // A child's Markdown is handed up as its core (no newline at either end) and its counts of leading
  // and trailing '\n' (`lead`, `trail`; an all-newline result has core '' and lead === trail). The
  // parent joins children by those counts; reading them off the string instead would flatten it: a
  // child's Markdown is a rope built by `+`, and the first charCodeAt (or slice) copies it whole, at
  // every level of the tree: the page's Markdown copied once per level of nesting.
  private lead = 0;
  private trail = 0;

  /**
   * turndown's `process(parent).join('')`, its `join` kept as the text and its count of trailing
   * newlines: returns the core, the counts in `lead` and `trail`.
   */
  content(parent: Node, inCode: boolean): string {
    let body = '';
    let newlines = 0;
    let firstSeparator = 0;
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      const type = c.nodeType;
      // Text is flat: read as it is.
      const core =
        type === 1
          ? this.element(c as Element, inCode)
          : this.edges(type === 3 ? (inCode ? (c as Text).data : this.escapeText((c as Text).data)) : '');
      const start = this.lead;
      const end = this.trail;
      const separator = Math.min(2, Math.max(newlines, start));
      if (core === '') {
        newlines = separator;
        continue;
      }
      if (body === '') {
        firstSeparator = separator;
        body = core;
      } else body += (separator === 0 ? '' : separator === 1 ? '\n' : '\n\n') + core;
      newlines = end;
    }
    this.lead = body === '' ? newlines : firstSeparator;
    this.trail = newlines;
    return body;
  }

  /** turndown's `replacementForNode`, with `Node`'s tests of the element: returns the core, as content() does. */
  element(el: Element, parentInCode: boolean): string {
    const name = nameOf(el);
    const s = this.summary(el);
    const blank = !name.void && !name.meaningful && s.allSpace && !s.hasVoidOrMeaningful;
    const rule = blank ? this.rules.blankRule : this.ruleFor(el, name.lower);
    const skip = blank || IGNORES_CONTENT.has(rule) || this.removed.has(rule);
    let core = '';
    let lead = 0;
    let trail = 0;
    if (!skip) {
      core = this.content(el, parentInCode || name.upper === 'CODE');
      lead = this.lead;
      trail = this.trail;
    }
    let leading = '';
    let trailing = '';
    if (!name.block) {
      // turndown's edgeWhitespace over textContent, then the ASCII part dropped where a neighbour
      // already has a space on that side.
      leading = s.lead;
      let a = 0;
      while (a < leading.length && isAsciiSpace(leading.charCodeAt(a))) a++;
      if (a > 0 && this.flanked(el, true)) leading = leading.slice(a);
      if (!s.allSpace) {
        trailing = s.trail;
        let b = trailing.length;
        while (b > 0 && isAsciiSpace(trailing.charCodeAt(b - 1))) b--;
        if (b < trailing.length && this.flanked(el, false)) trailing = trailing.slice(0, b);
      }
    }
    if (leading || trailing) {
      // The content trimmed: its newlines go with the rest of the white space at its edges.
      core = core.trim();
      lead = 0;
      trail = 0;
    }
    // `out`, the replacement, as core, lead and trail.
    if (rule === this.rules.blankRule) {
      core = '';
      lead = trail = name.block ? 2 : 0;
    } else if (rule === this.rules.defaultRule) {
      // `\n\n${content}\n\n` for a block, the content itself inline.
      if (name.block) {
        lead += core === '' ? 4 : 2;
        trail = core === '' ? lead : trail + 2;
      }
    } else if (WRAPS.has(rule)) {
      const [before, after] = WRAPS.get(rule)!(el);
      lead += before;
      trail = core === '' ? lead + after : trail + after;
      if (core === '') lead = trail;
    } else {
      const content = withNewlines(core, lead, trail);
      const out = rule.replacement(content, el, this.rules.options);
      // Another rule's Markdown is read (flattened) here once, not again by each ancestor.
      if (out !== content) {
        core = this.edges(out);
        lead = this.lead;
        trail = this.trail;
      }
    }
    if (leading === '' && trailing === '') {
      this.lead = lead;
      this.trail = trail;
      return core;
    }
    // leading + out + trailing. Edge white space is short (and holds a newline only from a <pre>'s
    // text at an inline element's edge): read as it is.
    const lc = this.edges(leading);
    const la = this.lead;
    const lt = this.trail;
    const tc = this.edges(trailing);
    const ta = this.lead;
    const tt = this.trail;
    core = this.join(lc, la, lt, core, lead, trail);
    return this.join(core, this.lead, this.trail, tc, ta, tt);
  }

  /** A flat string as a result: returns its core, its counts of edge newlines in `lead` and `trail`. */
  private edges(s: string): string {
    const lead = leadingNewlines(s);
    if (lead === s.length) {
      this.lead = this.trail = lead;
      return '';
    }
    const trail = trailingNewlines(s);
    this.lead = lead;
    this.trail = trail;
    return lead === 0 && trail === 0 ? s : s.slice(lead, s.length - trail);
  }

  /** Two results (core, lead, trail) one after the other: returns the core, the counts in `lead` and `trail`. */
  private join(a: string, aLead: number, aTrail: number, b: string, bLead: number, bTrail: number): string {
    if (a === '') {
      this.lead = aLead + bLead;
      this.trail = b === '' ? this.lead : bTrail;
      return b;
    }
    this.lead = aLead;
    if (b === '') {
      this.trail = aTrail + bLead;
      return a;
    }
    this.trail = bTrail;
    return a + withNewlines('', aTrail + bLead, 0) + b;
  }

  /** turndown's isFlankedByWhitespace: the sibling on that side ends (starts) with a space. */
  flanked(el: Element, left: boolean): boolean {
    const sibling = left ? el.previousSibling : el.nextSibling;
    if (!sibling) return false;
    if (sibling.nodeType === 3) {
      const v = (sibling as Text).data;
      return left ? v.endsWith(' ') : v.startsWith(' ');
    }
    if (sibling.nodeType !== 1 || nameOf(sibling as Element).block) return false;
    const s = this.summary(sibling as Element);
    return (left ? s.last : s.first) === ' ';
  }
}

const isPre = (node: Node) => node.nodeType === 1 && nameOf(node as Element).upper === 'PRE';

function remove(node: Node): Node {
  const next = (node.nextSibling ?? node.parentNode)!;
  node.parentNode!.removeChild(node);
  return next;
}

function next(prev: Node | null, current: Node): Node {
  if ((prev && prev.parentNode === current) || isPre(current)) return (current.nextSibling ?? current.parentNode)!;
  return (current.firstChild ?? current.nextSibling ?? current.parentNode)!;
}

/**
 * `s.replace(/[ \r\n\t]+/g, ' ')`. Most text nodes have nothing to collapse (single spaces between
 * words), yet the regex replaces every space and builds a new string: checked first.
 */
function collapseRuns(s: string): string {
  let space = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (space) return s.replace(/[ \r\n\t]+/g, ' ');
      space = true;
    } else if (c === 10 || c === 13 || c === 9) return s.replace(/[ \r\n\t]+/g, ' ');
    else space = false;
  }
  return s;
}

/** turndown's collapseWhitespace: runs of ASCII whitespace as one space, none at a block's edges. */
function collapseWhitespace(element: Element): void {
  if (!element.firstChild || isPre(element)) return;
  let prevText: CharacterData | null = null;
  let keepLeadingWs = false;
  let prev: Node | null = null;
  let node = next(prev, element);
  while (node !== element) {
    const type = node.nodeType;
    if (type === 3 || type === 4) {
      const t = node as CharacterData;
      let text = collapseRuns(t.data);
      if ((!prevText || prevText.data.endsWith(' ')) && !keepLeadingWs && text[0] === ' ') text = text.slice(1);
      if (!text) {
        node = remove(node);
        continue;
      }
      if (text !== t.data) t.data = text;
      prevText = t;
    } else if (type === 1) {
      const n = nameOf(node as Element);
      if (n.block || n.upper === 'BR') {
        if (prevText?.data.endsWith(' ')) prevText.data = prevText.data.slice(0, -1);
        prevText = null;
        keepLeadingWs = false;
      } else if (n.void || n.upper === 'PRE') {
        prevText = null;
        keepLeadingWs = true;
      } else if (prevText) {
        keepLeadingWs = false;
      }
    } else {
      node = remove(node);
      continue;
    }
    const nextNode = next(prev, node);
    prev = node;
    node = nextNode;
  }
  if (prevText) {
    if (prevText.data.endsWith(' ')) prevText.data = prevText.data.slice(0, -1);
    if (!prevText.data) remove(prevText);
  }
}

/**
 * `service.turndown(root)` on the element itself (turndown converts a copy): the same Markdown, with
 * its final trims done in linear time (turndown's `/[\t\r\n\s]+$/` is quadratic in a long run).
 */
export function writeMarkdown(service: TurndownService, root: Element): string {
  const rules = service.rules as unknown as Rules;
  // Names are cached by local name only where nodeName is its upper case (and by nodeName otherwise).
  const html = root.nodeName === root.localName.toUpperCase() && root.nodeName !== root.localName;
  if (html !== htmlNames) names.clear();
  htmlNames = html;
  collapseWhitespace(root);
  // The Markdown's core: its newlines at either end are trimmed below anyway.
  const md = new Writer(rules, (s) => service.escape(s)).content(root, false);
  let start = 0;
  while (start < md.length && (md[start] === '\n' || md[start] === '\t' || md[start] === '\r')) start++;
  return md.slice(start).trimEnd();
}
