// HTML → main-content Markdown: linkedom parse, size/depth guard, invisible-element clean-up,
// segmentation into text blocks, the two heuristic candidates (main-content.ts), the block
// classifier that keeps or drops each block with their choices as evidence (block-model.ts),
// turndown, tidy, and JSON-LD text the DOM hides.

import { keepBlocks } from './block-filter.js';
import { blockFeatures, type BlockRows, type CandidateSignals } from './block-features.js';
import { keptBlocks } from './block-model.js';
import { blocksIn, markedElements, segmentBlocks, type Block } from './blocks.js';
import { markCodeLanguages } from './code-language.js';
import { removeInvisible } from './clean-dom.js';
import { flattenDeepNodes, MAX_DEPTH, measureDom } from './dom-guard.js';
import { absolutizeLinks, documentBase } from './links.js';
import { tidyMarkdown } from './markdown-tidy.js';
import { parseHtmlDocument } from './parse-html.js';
import { selectMainContent, type MainContent } from './main-content.js';
import { hasText } from './dom-utils.js';
import { readStructuredData, type StructuredData } from './structured-data.js';
import { supplementFromStructuredData } from './structured-supplement.js';
import { prepareTables } from './tables.js';
import { computeTextStats } from './text-stats.js';
import { createTurndown } from './turndown-service.js';

export interface HtmlToMarkdownOptions {
  /** The page's URL: relative links and images are made absolute against it (or its <base href>). */
  url?: string;
}

export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): string {
  if (typeof html !== 'string') throw new TypeError('htmlToMarkdown: html must be a string');
  const page = analyzeHtml(html, options.url);
  if (!page) return '';
  keepBlocks(page.pristine, page.blocks, keptBlocks(page.rows));
  return supplementFromStructuredData(toMarkdown(page.pristine), page.data) || plainText(page.text());
}

export interface AnalyzedPage {
  /** An untouched copy of the prepared body, its blocks marked; the classifier's verdicts apply to it. */
  pristine: Element;
  /** Every block, `el` inside `pristine`. */
  blocks: Block[];
  rows: BlockRows;
  data: StructuredData;
  /** What the heuristic candidates chose (kept for comparison in benchmarks). */
  choice: MainContent;
  /** The page's whole text (fallback). */
  text: () => string;
}

/** Everything the block classifier needs; null when the page has no text at all. */
export function analyzeHtml(html: string, url?: string): AnalyzedPage | null {
  const page = preparePage(html, url);
  if (!hasText(page.doc.body)) return null;
  const pristine = page.doc.body.cloneNode(true) as Element;
  // Readability rewrites `page.doc`; what is needed from the untouched page afterwards (rarely) is
  // prepared again from the HTML.
  const fresh = () => preparePage(html, url).doc;
  const choice = selectMainContent(page.doc, page.elements, page.data, fresh);
  const byId = markedElements(pristine);
  const blocks = page.blocks;
  for (const b of blocks) b.el = byId.get(b.id) ?? b.el;
  // Readability's article holds the page's own (moved) text nodes; the cleaned candidates are copies.
  const readability = choice.article ? blocksIn(choice.article, page.owner) : null;
  const signals: CandidateSignals = {
    readability,
    cleaned: choice.cleaned ? blocksIn(choice.cleaned) : null,
    chosen: choice.source === 'readability' && readability ? readability : blocksIn(choice.element),
    source: ['readability', 'cleaned-main', 'cleaned-body', 'body'].indexOf(choice.source),
  };
  const rows = blockFeatures(blocks, computeTextStats(pristine), page.data, signals);
  return { pristine, blocks, rows, data: page.data, choice, text: () => fresh().body.textContent ?? '' };
}

interface PreparedPage {
  doc: Document;
  elements: number;
  data: StructuredData;
  blocks: Block[];
  owner: Map<Node, number>;
}

/** Parse, guard, clean up and mark blocks: deterministic, so a second call yields an identical document. */
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
  const { blocks, owner } = segmentBlocks(body);
  return { doc, elements: stats.elements, data, blocks, owner };
}

const turndown = createTurndown();

export function toMarkdown(root: Element): string {
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
