// The one turndown configuration: ATX headings, fenced code with its language, GFM tables,
// absolute links (from the attributes links.ts wrote), no empty links, nothing kept as raw HTML.

import TurndownService from 'turndown';
import { descendants, tagOf } from '../dom-utils.js';
import { LANG_ATTR } from './code-language.js';
import { HREF_ATTR, SELF_ATTR, SRC_ATTR } from './links.js';
import { escapeLinkText, escapeMarkdownText, fence, markdownUrl, oneLine } from './syntax.js';
import { addTableRules } from './tables.js';

/** Elements that never carry readable main content. */
export const DROPPED_TAGS = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'button',
  'input',
  'select',
  'textarea',
  'option',
  'audio',
  'video',
  'source',
  'track',
  'map',
  'dialog',
] as const;

/** Text of a <pre>, with <br> as newlines (highlighters split lines into spans and <br>s). */
function preText(pre: Node): string {
  const parts: string[] = [];
  const stack: Node[] = [pre];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === 3) parts.push(node.nodeValue ?? '');
    else if (node.nodeType === 1) {
      if ((node as Element).localName === 'br') parts.push('\n');
      const kids: Node[] = [];
      for (let c = node.firstChild; c; c = c.nextSibling) kids.push(c);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return parts.join('');
}

export function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*', // CommonMark reads `_` inside a word as a literal underscore, `*` as emphasis
    strongDelimiter: '**',
    hr: '---',
  });
  service.remove([...DROPPED_TAGS] as unknown as TurndownService.Filter);
  service.escape = escapeMarkdownText;

  service.addRule('fencedCode', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const el = node as Element;
      const code = preText(el).replace(/^\n+/, '').trimEnd();
      if (code.trim() === '') return '';
      return `\n\n${fence(code, el.getAttribute(LANG_ATTR) ?? '')}\n\n`;
    },
  });
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = oneLine(content).trim();
      if (text === '') return '';
      const level = Number(node.nodeName.charAt(1));
      return `\n\n${'#'.repeat(level)} ${text}\n\n`;
    },
  });
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      const el = node as Element;
      const href = el.getAttribute(HREF_ATTR);
      const text = content.trim();
      if (text === '' || isPageMarker(el)) return '';
      // A link around blocks (a card) cannot be one Markdown link; keep the blocks, drop the link.
      if (!href || text.includes('\n')) return content;
      // A link around a heading (a card's title) goes inside it: "[## Title](u)" is no heading.
      // escapeMarkdownText turns a "# " the page wrote into "\# ", so this one is the heading rule's.
      const heading = /^(#{1,6}) (.*)$/.exec(text);
      if (heading) return `\n\n${heading[1]} [${heading[2]}](${markdownUrl(href)})\n\n`;
      return `[${text}](${markdownUrl(href)})`;
    },
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const el = node as Element;
      const src = el.getAttribute(SRC_ATTR);
      const alt = (el.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      if (!src || alt === '') return '';
      return `![${escapeLinkText(alt)}](${markdownUrl(src)})`;
    },
  });
  // Delimiters hug the text: spaces and line breaks at the edges go outside, or "**Title<br>**"
  // leaves its closing ** at a line's start, where it closes nothing.
  // (trimStart/trimEnd: `/^(\s*)([\s\S]*?)(\s*)$/` was quadratic on a long inner whitespace run.)
  const delimit = (mark: string) => (content: string) => {
    const rest = content.trimStart();
    const core = rest.trimEnd();
    const lead = content.slice(0, content.length - rest.length);
    const trail = rest.slice(core.length);
    return core ? `${lead}${mark}${core}${mark}${trail}` : lead + trail;
  };
  service.addRule('strong', { filter: ['strong', 'b'], replacement: delimit('**') });
  service.addRule('emphasis', { filter: ['em', 'i'], replacement: delimit('*') });
  service.addRule('strikethrough', { filter: ['del', 's'], replacement: delimit('~~') });
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      if (content.trim() === '') return '';
      const parent = node.parentNode as Element | null;
      let prefix = `${options.bulletListMarker} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1') || 1;
        prefix = `${start + itemIndex(node as Element, parent)}. `;
      }
      // Continuation lines line up with the item's text ("10. " needs four spaces, not three).
      const indent = ' '.repeat(Math.max(3, prefix.length));
      const text = content.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n/gm, `\n${indent}`);
      return prefix + text.trimEnd() + '\n';
    },
  });
  addTableRules(service);
  service.addRule('whole', {
    filter: (node) => (node as Element).hasAttribute?.(WHOLE_ATTR) === true,
    replacement: (content) => {
      whole = content;
      return '';
    },
  });
  nameOncePerNode(service.rules as unknown as Rules);
  return service;
}

interface Rule {
  filter: unknown;
}
interface Rules {
  options: TurndownService.Options;
  array: Rule[];
  _keep: Rule[];
  _remove: Rule[];
  blankRule: Rule;
  defaultRule: Rule;
  forNode(node: HTMLElement & { isBlank?: boolean }): Rule;
}

/**
 * turndown's `Rules.forNode`, the same rules tried in the same order, with the element's lower-cased
 * name read once per element: turndown's filter test reads `node.nodeName.toLowerCase()` per rule
 * tried, and linkedom upper-cases `nodeName` on every read, two new strings per rule (an element that
 * no rule matches, a `<div>` or `<span>`, tries all ~25).
 */
function nameOncePerNode(rules: Rules): void {
  const find = (list: Rule[], node: HTMLElement, name: string): Rule | undefined => {
    for (const rule of list) {
      const filter = rule.filter;
      if (typeof filter === 'string') {
        if (filter === name) return rule;
      } else if (Array.isArray(filter)) {
        if (filter.indexOf(name) > -1) return rule;
      } else if (typeof filter === 'function') {
        if (filter.call(rule, node, rules.options)) return rule;
      } else throw new TypeError('`filter` needs to be a string, array, or function');
    }
    return undefined;
  };
  rules.forNode = function forNode(node) {
    if (node.isBlank) return this.blankRule;
    const name = node.nodeName.toLowerCase();
    return find(this.array, node, name) ?? find(this._keep, node, name) ?? find(this._remove, node, name) ?? this.defaultRule;
  };
}

// turndown ends with `.replace(/[\t\r\n\s]+$/, '')` over the whole Markdown, quadratic in any long
// whitespace run (a `<pre>` of 40,000 spaces: 1.6 s; 160,000: 26 s). The page goes through one wrapper
// whose rule keeps the Markdown before that trim (`whole`), and the same trim is done here in linear time.
const WHOLE_ATTR = 'data-ws-whole';
let whole = '';

// An item's number among its list's items, counted once per list (counting per item was quadratic:
// an <ol> of 100,000 items).
const itemIndexes = new WeakMap<Element, number>();
function itemIndex(li: Element, list: Element): number {
  if (!itemIndexes.has(li)) {
    let k = 0;
    for (let c = list.firstElementChild; c; c = c.nextElementSibling) if (c.localName === 'li') itemIndexes.set(c, k++);
  }
  return itemIndexes.get(li) ?? 0;
}

/**
 * turndown copies the element it is given (`cloneNode(true)`) before collapsing its whitespace: a
 * second DOM as large as the page, ~15 % of a conversion's time with its garbage. The prepared body
 * is the converter's own and is not read again, so it is converted in place.
 */
export function turndownInPlace(service: TurndownService, root: Element): string {
  flattenCode(root);
  const wrapper = root.ownerDocument.createElement('div');
  wrapper.setAttribute(WHOLE_ATTR, '');
  while (root.firstChild) wrapper.appendChild(root.firstChild);
  root.appendChild(wrapper);
  Object.defineProperty(root, 'cloneNode', { value: () => root, configurable: true });
  whole = '';
  try {
    const rest = service.turndown(root as unknown as HTMLElement);
    // turndown's own trims: line breaks at the start, any whitespace at the end.
    return (whole.replace(/^[\t\r\n]+/, '') + rest).trimEnd();
  } finally {
    whole = '';
    delete (root as { cloneNode?: unknown }).cloneNode;
  }
}

/**
 * Each `<pre>` holds only its text. The fenced-code rule reads nothing else, but turndown still walks
 * the children first and matches every inline one's text against an edge-whitespace regex that is
 * quadratic in a long run of spaces followed by another blank (`&nbsp;`), kept as written in code.
 */
function flattenCode(root: Element): void {
  for (const pre of descendants(root)) {
    // An inner <pre> is already text of its outer one.
    if (tagOf(pre) !== 'pre' || !pre.firstElementChild || pre.parentElement?.closest('pre')) continue;
    pre.textContent = preText(pre);
  }
}

/**
 * A link to the page itself whose text is only a sign ("¶", "§", "#", "↩", "^") is a permalink
 * beside a heading or a footnote's way back: chrome around the content, not part of it.
 */
function isPageMarker(a: Element): boolean {
  return a.hasAttribute(SELF_ATTR) && !/[\p{L}\p{N}]/u.test(a.textContent ?? '') && !descendants(a).some((el) => tagOf(el) === 'img');
}
