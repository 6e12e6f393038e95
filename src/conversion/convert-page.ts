// One fetched document → Markdown and the page's metadata (src/convert/metadata/), read from
// the same parse. What the conversion pool's workers run.

import { type ConvertibleDocument, documentKind, documentToMarkdown } from '../convert/document-to-markdown.js';
import { parseXmlRoot, xmlKind, xmlToMarkdown } from '../convert/formats/index.js';
import { htmlMetadata, htmlToMarkdownWithMetadata } from '../convert/html-to-markdown.js';
import { feedMetadata, languageTag } from '../convert/metadata/index.js';
import type { PageMetadata } from '../types/index.js';

export interface ConversionTask extends ConvertibleDocument {
  /** `markdown` (default): convert and read the metadata; `metadata`: only read it (the `html` format). */
  want?: 'markdown' | 'metadata';
  /** Collect the page's links too (HTML only). */
  links?: boolean;
  /** The HTTP Content-Language header, the last source of the page's language. */
  contentLanguage?: string;
}

export interface ConvertedPage {
  /** '' when only the metadata was asked for, or the document has no text. */
  markdown: string;
  /** Without `final_url`: the engine adds it. */
  metadata: PageMetadata;
  /** When asked for, and the document is HTML. */
  links?: string[];
  /** With `want: 'metadata'` on HTML: whether its body has any text outside scripts and styles (else the `html` format is `empty`). */
  hasText?: boolean;
}

export function convertPage(task: ConversionTask): ConvertedPage {
  const kind = documentKind(task.mimeType);
  const text = task.text.replace(/^\uFEFF/, '');
  const onlyMetadata = task.want === 'metadata';
  const options = { url: task.finalUrl, links: task.links === true, contentLanguage: task.contentLanguage };
  if (kind === 'html' && text.trim() !== '') {
    if (onlyMetadata) return { markdown: '', ...htmlMetadata(text, options) };
    return htmlToMarkdownWithMetadata(text, options);
  }
  if (kind === 'xml' && text.trim() !== '') {
    let metadata: PageMetadata = {};
    let markdown = '';
    if (onlyMetadata) {
      const root = parseXmlRoot(text);
      metadata = feedMetadata(root, xmlKind(root), task.contentLanguage);
    } else {
      markdown = xmlToMarkdown(text, (root, k) => (metadata = feedMetadata(root, k, task.contentLanguage)));
    }
    return { markdown, metadata, ...(task.links ? { links: [] } : {}) };
  }
  const language = task.contentLanguage === undefined ? undefined : languageTag(task.contentLanguage);
  return {
    markdown: onlyMetadata ? '' : documentToMarkdown(task),
    metadata: language === undefined ? {} : { language },
    ...(task.links ? { links: [] } : {}),
  };
}
