// One fetched document → Markdown, by media type. Returns '' only when the document has no text
// at all (the engine reports that as `empty`).

import { csvToMarkdown, jsonToMarkdown, xmlToMarkdown } from './formats/index.js';
import { htmlToMarkdown } from './html-to-markdown.js';

export interface ConvertibleDocument {
  /** Media type, e.g. `text/html; charset=utf-8` (parameters and case are ignored). */
  mimeType: string;
  /** The decoded body. */
  text: string;
  /** The URL the document was finally served from (after redirects), for absolute links. */
  finalUrl: string;
}

export type DocumentKind = 'html' | 'markdown' | 'text' | 'json' | 'csv' | 'xml';

/** Which converter handles a media type; undefined for types the extractor does not accept. */
export function documentKind(mimeType: string): DocumentKind | undefined {
  const type = mimeType.split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'text/csv' || type === 'application/csv' || type === 'text/tab-separated-values') return 'csv';
  if (type === 'application/json' || type === 'text/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  if (type === 'text/plain' || type === '') return 'text';
  if (type.startsWith('text/')) return 'text';
  return undefined;
}

export function documentToMarkdown(doc: ConvertibleDocument): string {
  const text = doc.text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return '';
  switch (documentKind(doc.mimeType)) {
    case 'html':
      return htmlToMarkdown(text, { url: doc.finalUrl });
    case 'json':
      return jsonToMarkdown(text);
    case 'csv':
      return csvToMarkdown(text);
    case 'xml':
      return xmlToMarkdown(text);
    case 'markdown':
    case 'text':
    case undefined:
      // Plain text and Markdown pass through; an unexpected type that reached here is text.
      return text.replace(/\r\n?/g, '\n').trim();
  }
}
