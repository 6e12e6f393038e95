// Text blocks, the classifier's unit: segmentation, marks, mapping an extraction back to blocks,
// applying keep/drop verdicts to a copy of the page, and the context features of stage two.

import { describe, expect, it } from 'vitest';
import { descendants } from '../../src/convert/dom-utils.js';
import { CONTEXT_FEATURES, contextFeatures } from '../../src/convert/model/block-context.js';
import { GROUP_LEVELS } from '../../src/convert/model/block-features.js';
import { keepBlocks } from '../../src/convert/model/block-filter.js';
import { segmentBlocks } from '../../src/convert/model/blocks.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';

const body = (html: string) => parseHtmlDocument(`<html><body>${html}</body></html>`).body;
const byText = (blocks: ReturnType<typeof segmentBlocks>, text: string) => blocks.find((b) => b.text.includes(text))!;

describe('segmentBlocks', () => {
  it('gives each text its nearest block ancestor; inline elements and links stay in the block', () => {
    const blocks = segmentBlocks(
      body('<div>Lead words <p>First <a href="/x">linked words</a> end</p><ul><li>One item</li></ul> tail</div>'),
    );
    const div = byText(blocks, 'Lead');
    const p = byText(blocks, 'First');
    expect(div.el.localName).toBe('div');
    expect(div.tokens).toBe(3); // "Lead words" + "tail"
    expect(p.tokens).toBe(4);
    expect(p.linkTokens).toBe(2);
    expect(p.links).toBe(1);
    expect(p.el.parentElement).toBe(div.el);
    expect(byText(blocks, 'One item').el.localName).toBe('li');
  });

  it('keeps a <pre> whole and counts other scripts as words', () => {
    const root = body('<pre><div>code line</div>\n<p>more code</p></pre><p>Ελληνικά κείμενο</p>');
    const blocks = segmentBlocks(root);
    const pre = byText(blocks, 'code line');
    expect(pre.el.localName).toBe('pre');
    expect(pre.text).toContain('more code');
    expect(byText(blocks, 'Ελληνικά').tokens).toBe(2);
  });
});

describe('keepBlocks', () => {
  it('drops a block’s own text but keeps the kept blocks nested in it, then prunes what is empty', () => {
    const root = body('<div><span>Menu link</span><h2>Kept heading</h2><ul><li>Dropped item</li></ul><p>Kept <b>paragraph</b></p></div>');
    const blocks = segmentBlocks(root);
    const kept = new Set([byText(blocks, 'Kept heading').id, byText(blocks, 'paragraph').id]);
    const left = keepBlocks(root, blocks, kept);
    expect(root.innerHTML).toBe('<div><h2>Kept heading</h2><p>Kept <b>paragraph</b></p></div>');
    expect(left).toEqual(descendants(root)); // the elements left, for the passes after it
  });

  it('keeps an image-only block next to kept text and drops one beside dropped text', () => {
    const root = body(
      '<p>Sidebar words</p><figure><img src="a.png"></figure><p>Article words here</p><p>Footer words</p><div><img src="ad.png"></div>',
    );
    const blocks = segmentBlocks(root);
    const left = keepBlocks(root, blocks, new Set([byText(blocks, 'Article').id]));
    expect(left).toEqual(descendants(root));
    expect(root.innerHTML).toContain('a.png');
    expect(root.innerHTML).not.toContain('ad.png');
    expect(root.textContent).not.toContain('Sidebar');
    expect(root.innerHTML).not.toContain('data-wsb'); // the block mark of earlier versions
  });

  it('tells blocks by the segmentation, not by a mark the page can write', () => {
    const root = body('<div><span data-wsb="0">Menu link</span><h2>Kept heading</h2></div>');
    const blocks = segmentBlocks(root);
    keepBlocks(root, blocks, new Set([byText(blocks, 'Kept heading').id]));
    expect(root.innerHTML).toBe('<div><h2>Kept heading</h2></div>');
  });

  it('keeps the whitespace of a whitespace-only element, so words (and highlighted code) stay apart', () => {
    const root = body(
      '<pre><span class="kn">from</span><span class="w"> </span><span class="nn">typing</span></pre><p>Kept<span> </span>words here</p>',
    );
    const blocks = segmentBlocks(root);
    const left = keepBlocks(root, blocks, new Set(blocks.filter((b) => b.tokens > 0).map((b) => b.id)));
    expect(root.textContent).toBe('from typingKept words here');
    expect(left).toEqual(descendants(root));
  });
});

describe('contextFeatures', () => {
  it('reports neighbours’ scores and token-weighted container means', () => {
    const levels = GROUP_LEVELS.length;
    // Three rows: the first two share every container, the third sits elsewhere.
    const groups = new Int32Array(3 * levels);
    for (let j = 0; j < levels; j++) groups[2 * levels + j] = 1;
    const out = contextFeatures({ groups }, [2, -2, 4], [30, 10, 20]);
    const cols = CONTEXT_FEATURES.length;
    const at = (r: number, name: (typeof CONTEXT_FEATURES)[number]) => out[r * cols + CONTEXT_FEATURES.indexOf(name)];
    expect(at(0, 'prev1')).toBe(-8);
    expect(at(1, 'prev1')).toBe(2);
    expect(at(1, 'next1')).toBe(4);
    expect(at(0, 'group1_score')).toBeCloseTo((30 * 2 + 10 * -2) / 40);
    expect(at(2, 'group1_score')).toBe(4);
    expect(at(0, 'group1_token_share')).toBeCloseTo(40 / 60);
    expect(at(2, 'page_kept_share')).toBeCloseTo(50 / 60);
  });

  it('gives the same features whatever numbers name the containers', () => {
    const levels = GROUP_LEVELS.length;
    const scores = [1, -2, 3, 0.5, -1, 2];
    const tokens = [10, 4, 30, 7, 1, 12];
    // blockFeatures' numbering (from 0, -1 for none) and the same containers under other numbers.
    const groups = Int32Array.from({ length: 6 * levels }, (_, i) => ((i * 7) % 4) - 1);
    const renamed = groups.map((g) => g * 1_000_003 - 17);
    expect(Array.from(contextFeatures({ groups: renamed }, scores, tokens))).toEqual(
      Array.from(contextFeatures({ groups }, scores, tokens)),
    );
  });

  it('places each row against the story: kept content before and after it, rows to the nearest likely paragraph', () => {
    const levels = GROUP_LEVELS.length;
    // Rows: a kept paragraph (20 tokens), a dropped caption (5), a kept short line (4), a kept paragraph (30), a dropped teaser (8).
    const scores = [1, -1, 1, 2, -3];
    const tokens = [20, 5, 4, 30, 8];
    const out = contextFeatures({ groups: new Int32Array(5 * levels) }, scores, tokens);
    const cols = CONTEXT_FEATURES.length;
    const at = (r: number, name: (typeof CONTEXT_FEATURES)[number]) => out[r * cols + CONTEXT_FEATURES.indexOf(name)];
    // Kept tokens: 20 + 4 + 30 = 54; a row's own tokens count on neither side.
    expect(at(0, 'kept_before_share')).toBe(0);
    expect(at(0, 'kept_after_share')).toBeCloseTo(34 / 54);
    expect(at(1, 'kept_before_share')).toBeCloseTo(20 / 54);
    expect(at(1, 'kept_after_share')).toBeCloseTo(34 / 54);
    expect(at(4, 'kept_before_share')).toBeCloseTo(1);
    expect(at(4, 'kept_after_share')).toBe(0);
    // Likely paragraphs: kept with 15 tokens or more (rows 0 and 3; the kept 4-token line is not one).
    expect(at(0, 'prose_gap_before')).toBe(-8);
    expect(at(1, 'prose_gap_before')).toBeCloseTo(Math.log1p(1));
    expect(at(2, 'prose_gap_before')).toBeCloseTo(Math.log1p(2));
    expect(at(2, 'prose_gap_after')).toBeCloseTo(Math.log1p(1));
    expect(at(0, 'prose_gap_after')).toBeCloseTo(Math.log1p(3));
    expect(at(4, 'prose_gap_before')).toBeCloseTo(Math.log1p(1));
    expect(at(4, 'prose_gap_after')).toBe(-8);
  });
});
