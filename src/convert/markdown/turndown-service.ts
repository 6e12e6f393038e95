// The one turndown configuration: ATX headings, fenced code with its language, GFM tables,
// absolute links (from the attributes links.ts wrote), no empty links, nothing kept as raw HTML.

import TurndownService from 'turndown';
import { descendants, tagOf } from '../dom-utils.js';
import { LANG_ATTR } from './code-language.js';
import { HREF_ATTR, SELF_ATTR, SRC_ATTR } from './links.js';
import { escapeLinkText, escapeMarkdownText, fence, markdownUrl, oneLine } from './syntax.js';
import { addTableRules } from './tables.js';
import { IGNORES_CONTENT, type Wrap, wrappingRule, writeMarkdown } from './writer.js';

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

const BLOCK: Wrap = [2, 2];
const NESTED_LIST: Wrap = [1, 0];

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

  // turndown's paragraph and list rules, as rules the writer joins without reading their Markdown.
  service.addRule(
    'paragraph',
    wrappingRule('p', () => BLOCK),
  );
  service.addRule(
    'list',
    wrappingRule(['ul', 'ol'], (el) => {
      const parent = el.parentNode as Element;
      return parent.nodeName === 'LI' && parent.lastElementChild === el ? NESTED_LIST : BLOCK;
    }),
  );
  // Names, not functions testing nodeName: the writer tests a name without calling anything (an HTML
  // document's nodeName is its upper-cased name, so the same elements match).
  service.addRule('fencedCode', {
    filter: 'pre',
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
    filter: 'a',
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
  // Their children are not converted at all (writer.ts): these replacements read the element only.
  const rules = service.rules as unknown as { array: { filter: unknown }[] };
  for (const rule of rules.array) if (rule.filter === 'img' || rule.filter === 'pre') IGNORES_CONTENT.add(rule);
  return service;
}

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
 * The prepared body as Markdown. turndown would copy it first (`cloneNode(true)`, a second DOM as
 * large as the page); it is the converter's own and is not read again, so it is converted in place,
 * by writer.ts (turndown's conversion, linear) with this service's rules.
 */
export function turndownInPlace(service: TurndownService, root: Element): string {
  flattenCode(root);
  return writeMarkdown(service, root);
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
