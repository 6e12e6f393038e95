// Documents other than HTML: CSV as a table, JSON in a fenced block, XML feeds and sitemaps as lists.
export { csvToMarkdown } from './csv.js';
export { jsonToMarkdown } from './json.js';
export type { XmlKind } from './xml.js';
export { parseXmlRoot, xmlKind, xmlToMarkdown } from './xml.js';
