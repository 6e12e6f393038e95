// HTML → main-content Markdown: linkedom parse, size/depth guard, invisible-element clean-up,
// segmentation into text blocks, the block classifier that keeps or drops each block
// (convert/model/block-model.ts; rule-based clean-up, convert/model/boilerplate.ts, is one of its features), turndown, tidy,
// and JSON-LD text the DOM hides.

import { removeInvisible } from './clean-dom.js';
import { guardedElements } from './dom-guard.js';
import { descendants, descendantsIn, hasText } from './dom-utils.js';
import { hasReadableText } from './has-text.js';
import {
  absolutizeLinks,
  breakRunsAs,
  createTurndown,
  documentBase,
  dropRepeatedImages,
  markCodeLanguages,
  prepareTables,
  separateInlineBoxes,
  tidyMarkdown,
  turndownInPlace,
} from './markdown/index.js';
import type { HtmlToMarkdownOptions } from './markdown-options.js';
import { type PageFacts, type PageMetadataOptions, readPageMetadata } from './metadata/index.js';
import {
  adjustStory,
  type Block,
  type BlockClassifier,
  type BlockRows,
  blockFeatures,
  boilerplateCover,
  defaultClassifier,
  dropChoiceLabels,
  dropHiddenCopies,
  type ElementCounts,
  findChoiceLabels,
  keepBlocks,
  keptBlocks,
  type Lexicon,
  segmentPage,
} from './model/index.js';
import { parseHtmlDocument } from './parse-html.js';
import { readStructuredData, type StructuredData } from './structured-data.js';
import { supplementFromStructuredData } from './structured-supplement.js';

export type { HtmlToMarkdownOptions };

/**
 * Converts an HTML page to Markdown the way `extract` does (main content kept, navigation and boilerplate
 * dropped, tables, code and links preserved), synchronously in this thread. For untrusted pages at
 * scale prefer `engine.extract`, which converts in worker threads under time and memory limits.
 * @param options `url`: the page's URL, against which relative links become absolute.
 * @throws {TypeError} when `html` is not a string.
 * @example
 * ```ts
 * htmlToMarkdown('<article><h1>Hi</h1><p>Some text.</p></article>', { url: 'https://example.com/' });
 * ```
 */
export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): string {
  if (typeof html !== 'string') throw new TypeError('htmlToMarkdown: html must be a string');
  return convertHtml(html, options, defaultClassifier());
}

/** htmlToMarkdown and the page's metadata (metadata/read.ts), read from the same parsed document before its clean-up. */
export function htmlToMarkdownWithMetadata(
  html: string,
  options: Omit<PageMetadataOptions, 'jsonLd'> = {},
): PageFacts & { markdown: string } {
  let facts: PageFacts = { metadata: {} };
  const read: ParsedHook = (doc, data, all) => (facts = readPageMetadata(doc, { ...options, jsonLd: data.jsonLd }, all));
  const markdown = convertHtml(html, options.url === undefined ? {} : { url: options.url }, defaultClassifier(), read);
  return { markdown, ...facts };
}

/** The page's metadata alone (the `html` format): parsed, but not converted; `hasText`: see has-text.ts. */
export function htmlMetadata(html: string, options: Omit<PageMetadataOptions, 'jsonLd'> = {}): PageFacts & { hasText: boolean } {
  const doc = parseHtmlDocument(html);
  return { ...readPageMetadata(doc, { ...options, jsonLd: readStructuredData(doc).jsonLd }), hasText: hasReadableText(doc) };
}

/** `all`: descendants(doc). */
type ParsedHook = (doc: Document, data: StructuredData, all: readonly Element[]) => void;

/** htmlToMarkdown with another classifier (benchmarks score dev-train pages with models that never saw them). */
export function convertHtml(html: string, options: HtmlToMarkdownOptions, classifier: BlockClassifier, onParsed?: ParsedHook): string {
  const page = analyzeHtml(html, options.url, classifier.lexicon, onParsed);
  if (!page) return '';
  const kept = keptBlocks(page.rows, classifier);
  adjustStory(page.rows, kept, page.data);
  dropHiddenCopies(page.rows.blocks, kept);
  dropChoiceLabels(page.blocks, kept, page.choiceLabels);
  const left = keepBlocks(page.body, page.blocks, kept);
  // Links are resolved on what is left (no feature reads them): most of a page's links are dropped.
  absolutizeLinks(page.body, page.base, left);
  dropRepeatedImages(page.body, left);
  separateInlineBoxes(page.body);
  const markdown = supplementFromStructuredData(toMarkdown(page.body), page.data);
  // A page with no main content comes out '' (extract reports `empty`). Kept blocks that still
  // came out '' (turndown overflowed) give the page's plain text (prepared again, rarely).
  if (markdown || kept.size === 0) return markdown;
  return plainText(preparePage(html, options.url).doc.body.textContent ?? '');
}

export interface AnalyzedPage {
  /** The prepared page's body, its blocks marked; the classifier's verdicts are applied to it. */
  body: Element;
  /** Every block, in id order. */
  blocks: Block[];
  rows: BlockRows;
  data: StructuredData;
  /** Labels of the page's live checkboxes and radios (convert/model/choice-labels.ts). */
  choiceLabels: Set<Element>;
  /** The base URL links are resolved against (convert/markdown/links.ts). */
  base: string | undefined;
}

/** The page's blocks only: what the class/id lexicon is learned from. */
export function segmentHtml(html: string, url?: string): Block[] | null {
  const page = preparePage(html, url);
  return hasText(page.doc.body) ? page.blocks : null;
}

/** Everything the block classifier needs; null when the page has no text at all. */
export function analyzeHtml(
  html: string,
  url?: string,
  lexicon: Lexicon = defaultClassifier().lexicon,
  onParsed?: ParsedHook,
): AnalyzedPage | null {
  const page = preparePage(html, url, onParsed);
  const body = page.doc.body;
  if (!hasText(body)) return null;
  // The segmentation's walk and word counts serve the rule-based clean-up and the features.
  const { counts } = page;
  const { covered } = boilerplateCover(counts, {});
  const cleaned = new Set<number>();
  for (const b of page.blocks) if (covered[counts.blockNode[b.id]!] === 0) cleaned.add(b.id);
  const rows = blockFeatures(page.blocks, counts, page.data, cleaned, page.title, lexicon);
  return { body, blocks: page.blocks, rows, data: page.data, choiceLabels: page.choiceLabels, base: page.base };
}

interface PreparedPage {
  doc: Document;
  data: StructuredData;
  blocks: Block[];
  /** Word counts of the body and every element below it, and their shape, by number (segmentPage). */
  counts: ElementCounts;
  title: string;
  choiceLabels: Set<Element>;
  base: string | undefined;
}

/** Parse, guard, clean up and mark blocks: deterministic, so a second call yields an identical document. */
function preparePage(html: string, url: string | undefined, onParsed?: ParsedHook): PreparedPage {
  const doc = parseHtmlDocument(html);
  const body = doc.body;
  // One element list (read with the depth guard's walk), cut and passed on, for the passes up to the
  // tables (they only remove elements).
  const all = guardedElements(doc);
  const data = readStructuredData(doc, all); // before scripts are removed
  onParsed?.(doc, data, all); // page metadata: before <head>, <meta> and scripts are removed
  const choiceLabels = findChoiceLabels(body, descendantsIn(all, body)); // before inputs are removed
  const root = doc.documentElement;
  const left = removeInvisible(root, descendantsIn(all, root));
  // The document's elements are the root's when the page has none beside it (parseHtmlDocument's);
  // the root itself is the <html> element, no <base>, so the elements below it are looked through.
  const base = documentBase(doc, url, left && all[0] === root && !root.nextElementSibling ? left : undefined);
  const below = left ? descendantsIn(left, body) : descendants(body);
  markCodeLanguages(body, below);
  // Layout tables read as the blocks they are; data tables keep their marks for turndown.
  prepareTables(body, below);
  const { blocks, counts } = segmentPage(body);
  return { doc, data, blocks, counts, title: doc.title ?? '', choiceLabels, base };
}

const turndown = createTurndown();

function toMarkdown(root: Element): string {
  try {
    return tidyMarkdown(turndownInPlace(turndown, root));
  } catch {
    // turndown recurses per element; anything that still overflows falls back to plain text.
    return '';
  }
}

function plainText(text: string): string {
  const lines = breakRunsAs(text.replace(/[ \t\r\f\v]+/g, ' '), '\n');
  return lines.replace(/\n{2,}/g, '\n\n').trim();
}
