// Adjacent inline boxes read as separate words, as they show on screen; text formatting stays joined.

import { describe, expect, it } from 'vitest';
import { separateInlineBoxes } from '../../src/convert/markdown/inline-spacing.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';

const spaced = (html: string) => {
  const body = parseHtmlDocument(`<html><body>${html}</body></html>`).body;
  separateInlineBoxes(body);
  return body.innerHTML;
};

describe('separateInlineBoxes', () => {
  it('puts a space between adjacent boxes whose words would otherwise join', () => {
    expect(spaced('<div><span>2026</span><span>1h 54m</span><span>R</span></div>')).toBe(
      '<div><span>2026</span> <span>1h 54m</span> <span>R</span></div>',
    );
    // Nested boxes: the outer siblings are what meet.
    expect(spaced('<label><span><span>Dressy</span></span><a hidden href="/d">Dressy</a></label>')).toBe(
      '<label><span><span>Dressy</span></span> <a hidden href="/d">Dressy</a></label>',
    );
  });

  it('leaves formatting, punctuation, existing spaces, blocks and code as written', () => {
    for (const html of [
      '<p><b>W</b><span>ord</span></p>', // formatting is not a box
      '<p><span>Price:</span><span>(5)</span></p>', // no word character meets another
      '<p><span>a</span> <span>b</span></p>', // already apart
      '<div><div>one</div><div>two</div></div>', // blocks: turndown sets them apart
      '<pre><span class="n">camel</span><span class="n">Case</span></pre>', // code is exact
      '<p><code><span>get</span><span>Item</span></code></p>',
    ]) {
      expect(spaced(html)).toBe(html);
    }
  });
});
