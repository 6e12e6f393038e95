// The block classifier's parts that are not the trees themselves (gbdt.test.ts): which rows are kept,
// refusing a model trained on another feature list, the features of a small page, class/id words,
// and the training labels.

import { describe, expect, it } from 'vitest';
import { blockFeatures, FEATURES, headingLevel } from '../../src/convert/model/block-features.js';
import { blockClassifier, blockScores, keptBlocks, selectRows } from '../../src/convert/model/block-model.js';
import { segmentBlocks } from '../../src/convert/model/blocks.js';
import { classTokens } from '../../src/convert/model/class-tokens.js';
import type { GbdtModel } from '../../src/convert/model/gbdt.js';
import { countElements } from '../../src/convert/model/segment-page.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { readStructuredData } from '../../src/convert/structured-data.js';
import { blockMatch, blockMatches, indexGroundTruth } from '../../tools/train/block-labels.js';
import { snippetLabels } from '../../tools/train/snippet-labels.js';

/** A one-leaf model: every row gets `score`. */
const constant = (score: number, features: readonly string[] = FEATURES): GbdtModel => ({
  version: 1,
  features: [...features],
  baseScore: score,
  trees: [{ feature: [-1], threshold: [0], left: [-1], right: [-1], value: [0] }],
});

function rowsOf(html: string, cleaned?: (text: string) => boolean, lexicon = {}) {
  const doc = parseHtmlDocument(html);
  const blocks = segmentBlocks(doc.body);
  const kept = new Set(blocks.filter((b) => b.tokens > 0 && (cleaned?.(b.text) ?? true)).map((b) => b.id));
  return blockFeatures(blocks, countElements(doc.body, blocks), readStructuredData(doc), kept, doc.title, lexicon);
}

describe('selectRows: the most probable blocks, as many as make the expected F1 highest', () => {
  const plain = { scale: 1, shift: 0 };
  const ten = (n: number) => Array(n).fill(10);

  it('on a page the model is sure of, keeps the blocks with p ≥ ½', () => {
    expect(selectRows([3, 2, -2, -3], ten(4), plain)).toEqual([true, true, false, false]);
  });

  it('where it is less sure everywhere, the cut falls: the best region of a short page is kept', () => {
    // p ≈ 0.27 and 0.23 are both kept (expected F1 0.40 against 0.36 for the first alone).
    expect(selectRows([-1, -1.2, -6], ten(3), plain)).toEqual([true, true, false]);
    expect(selectRows([-4, -9], ten(2), plain)).toEqual([true, false]);
  });

  it('keeps nothing of a page of 100 words or more from which it expects under ten words of content', () => {
    // p ≈ 0.047 everywhere: 4.7 of 100 words expected — a shell of chrome.
    expect(selectRows([-3, -3, -3, -3], [25, 25, 25, 25], plain)).toEqual([false, false, false, false]);
    // The same page at 99 words is short: kept as before.
    expect(selectRows([-3, -3, -3, -3], [25, 25, 25, 24], plain)).toEqual([true, true, true, true]);
    // Eleven words expected (p ≈ 0.11 of 100): not empty.
    expect(selectRows([-2.1, -2.1], [50, 50], plain)).toEqual([true, true]);
  });

  it('the cut depends on the page: an unsure block is dropped beside sure content, kept where nothing is surer', () => {
    // p ≈ 0.38 beside p ≈ 0.88; p ≈ 0.48 (the page's bulk) beside p ≈ 0.55.
    expect(selectRows([2, -0.5], [100, 100], plain)).toEqual([true, false]);
    expect(selectRows([0.2, -0.1], [10, 100], plain)).toEqual([true, true]);
  });

  it('applies the calibration: a shift moves the cut', () => {
    expect(selectRows([3, 0.5, -3], ten(3), plain)).toEqual([true, true, false]);
    expect(selectRows([3, 0.5, -3], ten(3), { scale: 1, shift: -2 })).toEqual([true, false, false]);
  });

  it('adds productShift to the shift on a page that declares a Product, and only there', () => {
    const shop = { scale: 1, shift: 0, productShift: -2 };
    expect(selectRows([3, 0.5, -3], ten(3), shop, true)).toEqual([true, false, false]);
    expect(selectRows([3, 0.5, -3], ten(3), shop, false)).toEqual([true, true, false]);
    // A calibration without the field (an older model file) shifts nothing.
    expect(selectRows([3, 0.5, -3], ten(3), plain, true)).toEqual([true, true, false]);
  });

  it('keeps ties and blocks without tokens with the cut', () => {
    expect(selectRows([2, 2, -3], [10, 0, 10], plain)).toEqual([true, true, false]);
    expect(selectRows([], [], plain)).toEqual([]);
  });

  it('keeps what the scan along a stable sort of the probabilities keeps, on pages of many rows and many ties', () => {
    // The selection as first written: the F1 sums formed along Array.prototype.sort's stable order.
    const reference = (scores: number[], tokens: number[]) => {
      const p = scores.map((s) => 1 / (1 + Math.exp(-s)));
      const order = p.map((_, r) => r).sort((a, b) => p[b]! - p[a]!);
      const expected = p.reduce((sum, q, r) => sum + q * tokens[r]!, 0);
      let [hits, kept, best, cut] = [0, 0, -1, Infinity];
      for (const r of order) {
        hits += p[r]! * tokens[r]!;
        kept += tokens[r]!;
        const f1 = kept + expected > 0 ? (2 * hits) / (kept + expected) : 0;
        if (f1 > best) [best, cut] = [f1, p[r]!];
      }
      return p.map((q) => q >= cut);
    };
    let seed = 3;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (const n of [1, 2, 3, 7, 64, 65, 300]) {
      for (let k = 0; k < 20; k++) {
        // Few distinct scores (ties everywhere) or many.
        const scores = Array.from({ length: n }, () => (k % 2 ? Math.round(next() * 6 - 3) : next() * 10 - 5));
        const tokens = Array.from({ length: n }, () => Math.floor(next() * 40));
        expect(selectRows(scores, tokens, plain)).toEqual(reference(scores, tokens));
      }
    }
  });
});

describe('blockClassifier', () => {
  const page =
    '<html><head><title>T</title></head><body><nav><a href="/">Home</a></nav><p>Main words of the page body here.</p></body></html>';

  it('refuses a model trained on another feature list, and then keeps what clean-up keeps', () => {
    const rows = rowsOf(page, (t) => !t.includes('Home'));
    const stale = blockClassifier({ stageOne: constant(5, ['other']), stageTwo: null, calibration: { scale: 1, shift: 0 }, lexicon: {} });
    expect(stale.stageOne).toBeNull();
    expect(blockScores(rows, stale)).toBeNull();
    const kept = keptBlocks(rows, stale);
    expect(rows.blocks.filter((b) => kept.has(b.id)).map((b) => b.text.trim())).toEqual(['Main words of the page body here.']);
  });

  it('applies a usable model: rows it is sure of are kept; on a page it is unsure of everywhere, not nothing', () => {
    const rows = rowsOf(page);
    const keepAll = blockClassifier({ stageOne: constant(2), stageTwo: null, calibration: { scale: 1, shift: 0 }, lexicon: {} });
    expect(keptBlocks(rows, keepAll).size).toBe(rows.blocks.length);
    // Every row at -2 (p ≈ 0.12): the page's best region (here, all of it, tied) is kept, never nothing.
    const unsure = blockClassifier({ stageOne: constant(-2), stageTwo: null, calibration: { scale: 1, shift: 0 }, lexicon: {} });
    expect(keptBlocks(rows, unsure).size).toBe(rows.blocks.length);
  });

  it('applies the product shift on a page whose JSON-LD offers a Product for sale, and on no other', () => {
    // The first block scores 3, the second 0.5: both kept (p ≈ 0.95, 0.62); shifted by -3 the second
    // (p ≈ 0.08) is dropped beside the first (p ≈ 0.5).
    const model: GbdtModel = {
      version: 1,
      features: [...FEATURES],
      baseScore: 0,
      trees: [
        {
          feature: [FEATURES.indexOf('row_position'), -1, -1],
          threshold: [0.25, 0, 0],
          left: [1, -1, -1],
          right: [2, -1, -1],
          value: [0, 3, 0.5],
        },
      ],
    };
    const c = blockClassifier({ stageOne: model, stageTwo: null, calibration: { scale: 1, shift: 0, productShift: -3 }, lexicon: {} });
    const kept = (data: string) => {
      const ld = `<script type="application/ld+json">{"@context":"https://schema.org",${data},"name":"Kettle"}</script>`;
      const rows = rowsOf(
        `<html><head>${ld}</head><body><p>The kettle boils a litre in two minutes.</p><p>Free returns within thirty days.</p></body></html>`,
      );
      return rows.blocks.filter((b) => keptBlocks(rows, c).has(b.id)).map((b) => b.text.trim());
    };
    const both = ['The kettle boils a litre in two minutes.', 'Free returns within thirty days.'];
    expect(kept('"@type":"Product","offers":{"@type":"Offer","price":"25.00"}')).toEqual([both[0]]);
    expect(kept('"@type":"ProductGroup","offers":{"@type":"AggregateOffer","lowPrice":"20"}')).toEqual([both[0]]);
    // A Product named but not offered (a company's page about what it makes), or no Product: no shift.
    expect(kept('"@type":"Product"')).toEqual(both);
    expect(kept('"@type":"Article","offers":{"@type":"Offer"}')).toEqual(both);
    // A news story whose paywall markup declares its subscription as a Product on offer: a story.
    expect(kept('"@type":"NewsArticle","isPartOf":{"@type":["CreativeWork","Product"],"offers":{"@type":"Offer"}}')).toEqual(both);
  });
});

/** One split: rows whose `feature` is above 0.5 score -2, the others +2. */
const penalize = (feature: (typeof FEATURES)[number]): GbdtModel => ({
  version: 1,
  features: [...FEATURES],
  baseScore: 0,
  trees: [
    { feature: [FEATURES.indexOf(feature), -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, 2, -2] },
  ],
});
const keptTexts = (html: string, model: GbdtModel) => {
  const rows = rowsOf(html);
  const kept = keptBlocks(rows, blockClassifier({ stageOne: model, stageTwo: null, calibration: { scale: 1, shift: 0 }, lexicon: {} }));
  return rows.blocks.filter((b) => kept.has(b.id)).map((b) => b.text.trim());
};

describe('keptBlocks: rules over the scores', () => {
  it('keeps the first <h1> when it heads the content, not one that follows it', () => {
    const headed = '<html><body><h1>Page title</h1><p>Body words of the page.</p><h1>Later heading</h1></body></html>';
    expect(keptTexts(headed, penalize('heading_level'))).toEqual(['Page title', 'Body words of the page.']);
    const trailing = '<html><body><p>Body words of the page.</p><h1>Later heading</h1></body></html>';
    expect(keptTexts(trailing, penalize('heading_level'))).toEqual(['Body words of the page.']);
  });

  it('on a page that offers a product, keeps the cells of a table row with a kept cell; elsewhere not', () => {
    const table =
      '<h1>Oak Desk</h1><p>A solid oak desk with dovetailed drawers and an oiled top.</p><table><tr><th>Width</th><td>140</td></tr><tr><th>Wood</th><td>White oak</td></tr></table>';
    const offer =
      '<script type="application/ld+json">{"@type":"Product","name":"Oak Desk","offers":{"@type":"Offer","price":"499"}}</script>';
    // The model drops the all-digit cell ("140") alone.
    expect(keptTexts(`<html><head>${offer}</head><body>${table}</body></html>`, penalize('digit_rate'))).toContain('140');
    expect(keptTexts(`<html><body>${table}</body></html>`, penalize('digit_rate'))).not.toContain('140');
    expect(keptTexts(`<html><body>${table}</body></html>`, penalize('digit_rate'))).toContain('White oak');
  });

  it('keeps a code block right after kept text, not one before it', () => {
    const html = '<html><body><pre>code before</pre><p>Body words of the page.</p><pre>code after</pre></body></html>';
    expect(keptTexts(html, penalize('tag_pre'))).toEqual(['Body words of the page.', 'code after']);
  });

  it('keeps sub-headings right above kept content (stacked ones too), not one that heads nothing', () => {
    const html =
      '<html><body><p>Intro words of the page.</p><h2>Section</h2><h3>Part</h3><p>Body words of the page.</p><h2>Trailing</h2></body></html>';
    expect(keptTexts(html, penalize('heading_level'))).toEqual(['Intro words of the page.', 'Section', 'Part', 'Body words of the page.']);
    // Same-level titles in a row are a list of cards: only the one right above the content heads it.
    const cards =
      '<html><body><h3>Koch Solutions</h3><h3>Turnpike Authority</h3><h3>Credit Union</h3><p>Body words of the page.</p></body></html>';
    expect(keptTexts(cards, penalize('heading_level'))).toEqual(['Credit Union', 'Body words of the page.']);
  });

  it('keeps a term (<dt>) whose kept definition says something, not one before a figure or outside its <dd>', () => {
    const api =
      '<html><body><dl><dt>cache(user_function)</dt><dd><p>Simple lightweight unbounded function cache.</p></dd></dl></body></html>';
    expect(keptTexts(api, penalize('tag_dd_dt'))).toEqual(['cache(user_function)', 'Simple lightweight unbounded function cache.']);
    const profile = '<html><body><p>Body words of the post here.</p><dl><dt>Posts:</dt><dd><p>4032</p></dd></dl></body></html>';
    expect(keptTexts(profile, penalize('tag_dd_dt'))).toEqual(['Body words of the post here.', '4032']);
    const apart = '<html><body><dl><dt>Loose term</dt></dl><p>Body words of the page here.</p></body></html>';
    expect(keptTexts(apart, penalize('tag_dd_dt'))).toEqual(['Body words of the page here.']);
  });

  it('keeps the header cells of a table with a kept cell, not those of a table with none', () => {
    const table = (head: string, body: string) =>
      `<table><thead><tr><th>${head}</th><th>Price</th></tr></thead><tbody><tr><td>${body}</td><td>ten dollars</td></tr></tbody></table>`;
    const html = `<html><body><p>body words of the page.</p>${table('Plan', 'basic plan')}<table><tr><th>Other</th><th>Header</th></tr><tr><td>Quiet</td><td>Cells</td></tr></table></body></html>`;
    expect(keptTexts(html, penalize('capital_rate'))).toEqual(['body words of the page.', 'Plan', 'Price', 'basic plan', 'ten dollars']);
  });

  it('leaves a heading that repeats text the page already showed (a card title after its hidden link) to the model', () => {
    const card =
      '<html><body><div><a href="/c">Join the coding challenge</a></div><h2>Join the coding challenge</h2><p>Body words of the page.</p></body></html>';
    expect(keptTexts(card, penalize('heading_level'))).toEqual(['Join the coding challenge', 'Body words of the page.']);
    const titled = '<html><body><h3>Oak desks by hand</h3><h1>Oak desks by hand</h1><p>Body words of the page.</p></body></html>';
    expect(keptTexts(titled, penalize('heading_level'))).toEqual(['Body words of the page.']);
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

  it('groups repeated siblings by tag and class together (another tag or class is another group)', () => {
    const cards = rowsOf(`<html><body><div><div class="card"><p>One card text</p></div><div class="card"><p>Two card text</p></div>
      <section class="card"><p>Three card text</p></section><div class="other"><p>Four card text</p></div></div></body></html>`);
    const at = (text: string) =>
      cards.x[cards.blocks.findIndex((b) => b.text.includes(text)) * FEATURES.length + FEATURES.indexOf('repeat_max')];
    expect(at('One')).toBeCloseTo(Math.log1p(1));
    expect(at('Two')).toBeCloseTo(Math.log1p(1));
    expect(at('Three')).toBe(0);
    expect(at('Four')).toBe(0);
  });

  it('counts the copies before a block of three words or more; short labels repeat by design', () => {
    const copies = rowsOf(`<html><body><div role="alertdialog"><p>Accept all cookies</p></div>
      <p>First post words here.</p><p>Reply</p><p>First post words here.</p><p>Reply</p><p>First post words here.</p></body></html>`);
    const at = (r: number, name: (typeof FEATURES)[number]) => copies.x[r * FEATURES.length + FEATURES.indexOf(name)];
    expect(copies.blocks.map((b) => b.text.trim())).toEqual([
      'Accept all cookies',
      'First post words here.',
      'Reply',
      'First post words here.',
      'Reply',
      'First post words here.',
    ]);
    expect([1, 3, 5].map((r) => at(r, 'duplicate_before'))).toEqual([0, 1, 2]);
    expect([2, 4].map((r) => at(r, 'duplicate_before'))).toEqual([0, 0]);
    expect(at(0, 'role_chrome')).toBe(1); // the chrome roles are clean-up's, alertdialog included
    expect(at(1, 'role_chrome')).toBe(0);
  });

  it('scores class/id words with the lexicon: the nearest known ancestor, and the extremes', () => {
    expect(value('Our oak', 'lex_nearest')).toBeCloseTo(1); // "entry-content": mean of 1.5 and 0.5
    expect(value('Our oak', 'lex_nearest_level')).toBe(1);
    expect(value('Alpha', 'lex_min')).toBe(-2); // "site-menu"
  });

  it('scores no element with a class or id word the lexicon object inherits ("constructor")', () => {
    // Read off a plain object, "constructor" found Object's constructor: the mean became NaN, so the
    // element counts as unscored. Kept as it was (a Map looks the words up now).
    const inherited = rowsOf(
      '<html><body><div class="content"><div class="constructor box"><p>Text words here.</p></div><div id="constructor"><p>Other words here.</p></div></div></body></html>',
      undefined,
      { content: 0.5, box: 1 },
    );
    const at = (r: number, name: (typeof FEATURES)[number]) => inherited.x[r * FEATURES.length + FEATURES.indexOf(name)];
    expect([at(0, 'lex_nearest'), at(0, 'lex_nearest_level')]).toEqual([0.5, 2]);
    expect([at(1, 'lex_nearest'), at(1, 'lex_nearest_level')]).toEqual([0.5, 2]);
  });
});

describe('classTokens', () => {
  it('splits class and id into lower-case words of 3–20 letters', () => {
    const el = parseHtmlDocument('<div class="post-content__body col-6 jsHeroBanner" id="main_2"></div>').body.firstElementChild!;
    expect(classTokens(el)).toEqual(['post', 'content', 'body', 'col', 'js', 'hero', 'banner', 'main'].filter((t) => t.length >= 3));
  });

  it('reads the same words for a class alone, a class with an id and an id alone, whatever was asked before', () => {
    const els = Array.from(
      parseHtmlDocument(
        '<p class="side-note"></p><p class="side-note" id="promo-box"></p><p id="promo-box"></p><p class="side-note" id=""></p><p class=""></p><p></p>',
      ).body.children,
    );
    const words = els.map((el) => classTokens(el));
    expect(words).toEqual([['side', 'note'], ['side', 'note', 'promo', 'box'], ['promo', 'box'], ['side', 'note'], [], []]);
    expect(els.map((el) => classTokens(el))).toEqual(words);
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

  it('a repeated block is content as many times as the ground truth holds it, the first copies', () => {
    const post = 'quick brown fox jumps';
    expect(blockMatches([post, 'Reply', post, post], gt)).toEqual([1, 0, 0, 0]);
    const twice = indexGroundTruth(`${post}. Someone quoted: ${post}.`);
    expect(blockMatches([post, post, post], twice)).toEqual([1, 1, 0]);
    expect(blockMatches(['Contact us', 'Contact us'], gt)).toEqual([1, 1]); // short blocks: as before
  });
});

describe('training labels from snippets (trafilatura-eval)', () => {
  const blocks = ['Home', 'The  story begins\nhere.', 'It goes on', 'and ends.', 'Related: the story begins', 'Share'];

  it('labels the blocks a `with` snippet spans 1, those a `without` snippet touches 0, the rest unknown', () => {
    expect(snippetLabels(blocks, ['on and ends'], ['Share'])).toEqual([-1, -1, 1, 1, -1, 0]);
  });

  it('a `with` snippet found twice labels nothing; every copy of a `without` snippet is 0', () => {
    expect(snippetLabels(blocks, ['story begins'], [])).toEqual([-1, -1, -1, -1, -1, -1]);
    expect(snippetLabels(['Share', 'text', 'Share'], [], ['Share'])).toEqual([0, -1, 0]);
  });

  it('a block both snippets touch is 0, and a snippet that is not there labels nothing', () => {
    expect(snippetLabels(blocks, ['It goes'], ['goes on'])).toEqual([-1, -1, 0, -1, -1, -1]);
    expect(snippetLabels(blocks, ['not on the page'], [''])).toEqual([-1, -1, -1, -1, -1, -1]);
  });
});

describe('headingLevel', () => {
  it('is the digit of h1-h6 and 0 for any other tag, as /^h[1-6]$/ decided', () => {
    const tags = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h0', 'h7', 'h9', 'h10', 'h1x', 'hr', 'h', '', 'p', 'th', 'xh1', 'h:'];
    for (const tag of tags) expect(headingLevel(tag)).toBe(/^h[1-6]$/.test(tag) ? Number(tag[1]) : 0);
    expect(tags.map(headingLevel).filter((d) => d > 0)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('sibling groups', () => {
  it("count each parent's children apart, whatever class other parents share with them", () => {
    const li = (t: string, cls = 'item') => `<li class="${cls}">${t} words here</li>`;
    const html = `<html><body><ul>${li('One')}${li('Two')}${li('Three')}${li('Odd', 'other')}</ul>
      <ol>${li('Four')}${li('Five')}<li>Plain words here</li></ol><ul>${li('Six')}</ul></body></html>`;
    const rows = rowsOf(html);
    const value = (text: string, name: (typeof FEATURES)[number]) => {
      const r = rows.blocks.findIndex((b) => b.text.includes(text));
      return rows.x[r * FEATURES.length + FEATURES.indexOf(name)];
    };
    expect(value('One', 'repeat_self')).toBeCloseTo(Math.log1p(2)); // three li.item in its <ul>
    expect(value('Odd', 'repeat_self')).toBe(0);
    expect(value('Four', 'repeat_self')).toBeCloseTo(Math.log1p(1)); // two in its <ol>, not five
    expect(value('Plain', 'repeat_self')).toBe(0);
    expect(value('Six', 'repeat_self')).toBe(0); // alone in its <ul>
  });
});
