// The block classifier's parts that are not the trees themselves (gbdt.test.ts): which rows are kept,
// refusing a model trained on another feature list, the features of a small page, class/id words,
// and the training labels.

import { describe, expect, it } from 'vitest';
import { blockFeatures, FEATURES } from '../../src/convert/block-features.js';
import { blockClassifier, blockScores, keptBlocks, selectRows } from '../../src/convert/block-model.js';
import { segmentBlocks } from '../../src/convert/blocks.js';
import { classTokens } from '../../src/convert/class-tokens.js';
import type { GbdtModel } from '../../src/convert/gbdt.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { readStructuredData } from '../../src/convert/structured-data.js';
import { computeTextStats } from '../../src/convert/text-stats.js';
import { blockMatch, indexGroundTruth } from '../../bench/lib/block-labels.js';

/** A one-leaf model: every row gets `score`. */
const constant = (score: number, features: readonly string[] = FEATURES): GbdtModel => ({
  version: 1, features: [...features], baseScore: score, trees: [{ feature: [-1], threshold: [0], left: [-1], right: [-1], value: [0] }],
});

function rowsOf(html: string, cleaned?: (text: string) => boolean, lexicon = {}) {
  const doc = parseHtmlDocument(html);
  const blocks = segmentBlocks(doc.body);
  const kept = new Set(blocks.filter((b) => b.tokens > 0 && (cleaned?.(b.text) ?? true)).map((b) => b.id));
  return blockFeatures(blocks, computeTextStats(doc.body), readStructuredData(doc), kept, doc.title, lexicon);
}

describe('selectRows', () => {
  it('keeps rows at or above the threshold', () => {
    expect(selectRows([1, 0.5, 0.49, -2], 0.5, 0)).toEqual([true, true, false, false]);
  });

  it('keeps the best region of a page the classifier is unsure about everywhere', () => {
    // Nothing reaches 0.5; within 1 of the best (-0.2) are -0.2 and -0.9.
    expect(selectRows([-0.2, -0.9, -1.1, -4], 0.5, 1)).toEqual([true, true, false, false]);
    // …but never below SCORE_FLOOR, unless nothing reaches it: then the best region, never nothing.
    expect(selectRows([-0.5, -1.2, -4], 0.5, 3)).toEqual([true, false, false]);
    expect(selectRows([-3, -3.5, -7], 0.5, 3)).toEqual([true, true, false]);
  });
});

describe('blockClassifier', () => {
  const page = '<html><head><title>T</title></head><body><nav><a href="/">Home</a></nav><p>Main words of the page body here.</p></body></html>';

  it('refuses a model trained on another feature list, and then keeps what clean-up keeps', () => {
    const rows = rowsOf(page, (t) => !t.includes('Home'));
    const stale = blockClassifier({ stageOne: constant(5, ['other']), stageTwo: null, threshold: 0, margin: 0, lexicon: {} });
    expect(stale.stageOne).toBeNull();
    expect(blockScores(rows, stale)).toBeNull();
    const kept = keptBlocks(rows, stale);
    expect(rows.blocks.filter((b) => kept.has(b.id)).map((b) => b.text.trim())).toEqual(['Main words of the page body here.']);
  });

  it('applies a usable model: scores above the threshold keep every row, below drop them', () => {
    const rows = rowsOf(page);
    const keepAll = blockClassifier({ stageOne: constant(2), stageTwo: null, threshold: 0, margin: 0, lexicon: {} });
    expect(keptBlocks(rows, keepAll).size).toBe(rows.blocks.length);
    // Every row at -2, under the floor: the page's best region (here, all of it) is kept, never nothing.
    const unsure = blockClassifier({ stageOne: constant(-2), stageTwo: null, threshold: 0, margin: 3, lexicon: {} });
    expect(keptBlocks(rows, unsure).size).toBe(rows.blocks.length);
  });
});

/** One split: rows whose `feature` is above 0.5 score -2, the others +2. */
const penalize = (feature: (typeof FEATURES)[number]): GbdtModel => ({
  version: 1, features: [...FEATURES], baseScore: 0,
  trees: [{ feature: [FEATURES.indexOf(feature), -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, 2, -2] }],
});
const keptTexts = (html: string, model: GbdtModel) => {
  const rows = rowsOf(html);
  const kept = keptBlocks(rows, blockClassifier({ stageOne: model, stageTwo: null, threshold: 0, margin: 0, lexicon: {} }));
  return rows.blocks.filter((b) => kept.has(b.id)).map((b) => b.text.trim());
};

describe('keptBlocks: rules over the scores', () => {
  it('keeps the first <h1> when it heads the content, not one that follows it', () => {
    const headed = '<html><body><h1>Page title</h1><p>Body words of the page.</p><h1>Later heading</h1></body></html>';
    expect(keptTexts(headed, penalize('heading_level'))).toEqual(['Page title', 'Body words of the page.']);
    const trailing = '<html><body><p>Body words of the page.</p><h1>Later heading</h1></body></html>';
    expect(keptTexts(trailing, penalize('heading_level'))).toEqual(['Body words of the page.']);
  });

  it('keeps a code block right after kept text, not one before it', () => {
    const html = '<html><body><pre>code before</pre><p>Body words of the page.</p><pre>code after</pre></body></html>';
    expect(keptTexts(html, penalize('tag_pre'))).toEqual(['Body words of the page.', 'code after']);
  });
});

describe('blockFeatures', () => {
  const html = `<html><head><title>Oak desks</title></head><body>
    <nav class="site-menu"><ul><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li></ul></nav>
    <div class="entry-content"><h1>Oak desks</h1><p>Our oak desks are built by hand, finished with oil, and shipped flat.</p></div>
    <footer><p>© 2026 Example Inc. All rights reserved.</p></footer></body></html>`;
  const rows = rowsOf(html, undefined, { entry: 1.5, content: 0.5, menu: -2 });
  const value = (text: string, name: (typeof FEATURES)[number]) => {
    const r = rows.blocks.findIndex((b) => b.text.includes(text));
    return rows.x[r * FEATURES.length + FEATURES.indexOf(name)];
  };

  it('reads landmarks, link share, headings, the title and telling phrases', () => {
    expect(value('Alpha', 'in_nav')).toBe(1);
    expect(value('Alpha', 'link_density')).toBe(1);
    expect(value('Our oak', 'in_nav')).toBe(0);
    expect(value('Oak desks', 'heading_level')).toBe(1);
    expect(value('Oak desks', 'title_overlap')).toBe(1);
    expect(value('Example Inc', 'in_footer')).toBe(1);
    expect(value('Example Inc', 'text_legal')).toBe(1);
    expect(value('Our oak', 'text_legal')).toBe(0);
    expect(value('Beta', 'repeat_max')).toBeCloseTo(Math.log1p(1)); // its <li> has one like sibling
  });

  it('scores class/id words with the lexicon: the nearest known ancestor, and the extremes', () => {
    expect(value('Our oak', 'lex_nearest')).toBeCloseTo(1); // "entry-content": mean of 1.5 and 0.5
    expect(value('Our oak', 'lex_nearest_level')).toBe(1);
    expect(value('Alpha', 'lex_min')).toBe(-2); // "site-menu"
  });
});

describe('classTokens', () => {
  it('splits class and id into lower-case words of 3–20 letters', () => {
    const el = parseHtmlDocument('<div class="post-content__body col-6 jsHeroBanner" id="main_2"></div>').body.firstElementChild!;
    expect(classTokens(el)).toEqual(['post', 'content', 'body', 'col', 'js', 'hero', 'banner', 'main'].filter((t) => t.length >= 3));
  });
});

describe('training labels', () => {
  const gt = indexGroundTruth('The quick brown fox jumps over the lazy dog. Contact us today.');

  it('a block is content when its word trigrams occur in the ground truth', () => {
    expect(blockMatch('quick brown fox jumps', gt)).toBe(1);
    expect(blockMatch('quick brown fox sleeps soundly', gt)).toBeCloseTo(1 / 3);
    expect(blockMatch('Contact us', gt)).toBe(1); // short blocks: the whole sequence
    expect(blockMatch('Contact me', gt)).toBe(0);
    expect(blockMatch('—', gt)).toBeNull();
  });
});
