// HTML → main-content Markdown: linkedom parse, size/depth guard, invisible-element clean-up,
// main-content selection (main-content.ts), turndown, tidy.

import { markCodeLanguages } from './code-language.js';
import { removeInvisible } from './clean-dom.js';
import { flattenDeepNodes, MAX_DEPTH, measureDom } from './dom-guard.js';
import { absolutizeLinks, documentBase } from './links.js';
import { tidyMarkdown } from './markdown-tidy.js';
import { parseHtmlDocument } from './parse-html.js';
import { selectMainContent } from './main-content.js';
import { hasText } from './dom-utils.js';
import { readStructuredData, type StructuredData } from './structured-data.js';
import { supplementFromStructuredData } from './structured-supplement.js';
import { prepareTables } from './tables.js';
import { createTurndown } from './turndown-service.js';

export interface HtmlToMarkdownOptions {
  /** The page's URL: relative links and images are made absolute against it (or its <base href>). */
  url?: string;
}

export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): string {
  if (typeof html !== 'string') throw new TypeError('htmlToMarkdown: html must be a string');
  const page = preparePage(html, options.url);
  if (!hasText(page.doc.body)) return '';
  // Readability rewrites `page.doc`; what is needed from the untouched page afterwards (rarely) is
  // prepared again from the HTML — cheaper on most pages than copying the tree up front.
  const fresh = () => preparePage(html, options.url).doc;
  const { element } = selectMainContent(page.doc, page.elements, page.data, fresh);
  return supplementFromStructuredData(toMarkdown(element), page.data) || plainText(fresh().body.textContent ?? '');
}

interface PreparedPage {
  doc: Document;
  elements: number;
  data: StructuredData;
}

/** Parse, guard and clean up: deterministic, so a second call yields an identical document. */
function preparePage(html: string, url: string | undefined): PreparedPage {
  const doc = parseHtmlDocument(html);
  const body = doc.body;
  const stats = measureDom(body);
  if (stats.maxDepth > MAX_DEPTH) flattenDeepNodes(body, MAX_DEPTH);

  const data = readStructuredData(doc); // before scripts are removed
  removeInvisible(doc.documentElement);
  absolutizeLinks(body, documentBase(doc, url));
  markCodeLanguages(body);
  // Before Readability, so layout tables read as the blocks they are and data tables keep their marks.
  prepareTables(body);
  return { doc, elements: stats.elements, data };
}

const turndown = createTurndown();

function toMarkdown(root: Element): string {
  try {
    return tidyMarkdown(turndown.turndown(root as unknown as HTMLElement));
  } catch {
    // turndown recurses per element; anything that still overflows falls back to plain text.
    return '';
  }
}

function plainText(text: string): string {
  return text.replace(/[ \t\r\f\v]+/g, ' ').replace(/\s*\n\s*/g, '\n').replace(/\n{2,}/g, '\n\n').trim();
}
