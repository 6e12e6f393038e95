// The Markdown writer: one turndown service with GFM tables, links and images made absolute, code
// languages, inline spacing, and the final tidy-up.
export { markCodeLanguages } from './code-language.js';
export { dropRepeatedImages } from './decorative-images.js';
export { separateInlineBoxes } from './inline-spacing.js';
export { absolutizeLinks, documentBase, resolveUrl } from './links.js';
export { breakRunsAs, escapeLinkText, escapeMarkdownText, fence, markdownUrl, oneLine } from './syntax.js';
export { padsShortRows, prepareTables } from './tables.js';
export { tidyMarkdown } from './tidy.js';
export { createTurndown, DROPPED_TAGS, turndownInPlace } from './turndown-service.js';
