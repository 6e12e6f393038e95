// Conversion of fetched documents to Markdown (issue 3) and main-content extraction.

export type { ConvertibleDocument, DocumentKind } from './document-to-markdown.js';
export { documentKind, documentToMarkdown } from './document-to-markdown.js';
export type { HtmlToMarkdownOptions } from './html-to-markdown.js';
export { htmlToMarkdown } from './html-to-markdown.js';
