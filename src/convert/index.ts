// Conversion of fetched documents to Markdown (issue 3) and main-content extraction.
export { htmlToMarkdown } from './html-to-markdown.js';
export type { HtmlToMarkdownOptions } from './html-to-markdown.js';
export { documentToMarkdown, documentKind } from './document-to-markdown.js';
export type { ConvertibleDocument, DocumentKind } from './document-to-markdown.js';
