// Page metadata, the folder's public face: what code outside src/convert/metadata/ imports. The
// walk and precedence are in read.ts; feeds, dates, URLs, JSON-LD and text clean-up each in their file.

export { normalizeDate } from './dates.js';
export { feedMetadata } from './feeds.js';
export { MAX_DESCRIPTION_CHARS, MAX_LINKS, MAX_SITE_NAME_CHARS, MAX_TITLE_CHARS, MAX_URL_CHARS } from './limits.js';
export { type PageFacts, type PageMetadataOptions, readPageMetadata } from './read.js';
export { cleanText, languageTag } from './text.js';
