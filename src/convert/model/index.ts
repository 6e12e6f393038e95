// The main-content model: text blocks and their features, the two-stage GBDT and its weights
// (block-model.json, read on first use), rule-based boilerplate, and the article rules applied after it.
export { adjustStory } from './article-tail.js';
export type { BlockRows, Lexicon } from './block-features.js';
export { blockFeatures } from './block-features.js';
export { keepBlocks } from './block-filter.js';
export type { BlockClassifier } from './block-model.js';
export { defaultClassifier, keptBlocks } from './block-model.js';
export type { Block } from './blocks.js';
export { segmentBlocks } from './blocks.js';
export { boilerplateCover, findBoilerplate, insideAny } from './boilerplate.js';
export { dropChoiceLabels, findChoiceLabels } from './choice-labels.js';
export { dropHiddenCopies } from './hidden-copy.js';
export { countElements, type ElementCounts, type PageText, segmentPage } from './segment-page.js';
export type { TextStats } from './text-stats.js';
export { computeTextStats, wordsOf } from './text-stats.js';
