import { describe, expect, it } from 'vitest';
import { removeInvisible } from '../../src/convert/clean-dom.js';
import { guardedElements, MAX_DEPTH, measureDom } from '../../src/convert/dom-guard.js';
import { descendants, descendantsIn } from '../../src/convert/dom-utils.js';
import { elementsAndDepth } from '../../src/convert/linkedom-reads.js';
import { documentBase } from '../../src/convert/markdown/links.js';
import { findChoiceLabels } from '../../src/convert/model/choice-labels.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { lorem, page } from './fixtures.js';

// One element list cut and passed on between the passes before segmentation (html-to-markdown.ts):
// each cut must be what a fresh walk returns.

const SAMPLE = `<!doctype html><html><head><title>t</title><meta name="x" content="y"><script>1</script></head>
<body><div id="a"><p>one <b>two</b></p><ul><li>1</li><li>2 <i>x</i></li></ul></div><div id="b"><span>s</span></div>
<section><div><p>deep <em>em</em></p></div></section></body></html><p id="after">after</p>`;

describe('descendantsIn', () => {
  it('cuts every element’s descendants out of the document’s list', () => {
    const doc = parseHtmlDocument(SAMPLE);
    const all = descendants(doc);
    for (const el of all) expect(descendantsIn(all, el)).toEqual(descendants(el));
    // A list of a subtree's elements serves the elements inside it too.
    const body = descendants(doc.body);
    for (const el of body) expect(descendantsIn(body, el)).toEqual(descendants(el));
  });

  it('walks an element the list does not hold', () => {
    const doc = parseHtmlDocument(SAMPLE);
    const list = descendants(doc.querySelector('#a')!);
    const b = doc.querySelector('#b')!;
    expect(descendantsIn(list, b)).toEqual(descendants(b));
  });
});

describe('removeInvisible: the elements left', () => {
  it('are the document order walk of what stays', () => {
    const doc = parseHtmlDocument(
      page(`<nav><a href="/">Home</a></nav><p>${lorem(3)}<span class="sr-only">Skip</span></p><svg><g><text>t</text></g></svg>
      <ul><li aria-hidden="true"><b>x</b></li><li><i class="material-icons">check</i> yes</li></ul><template><p>tpl</p></template>
      <noscript>Please enable JavaScript.</noscript><iframe src="x"></iframe><p>end</p>`),
    );
    const root = doc.documentElement;
    const left = removeInvisible(root, descendants(root));
    expect(left).toEqual(descendants(root));
    expect(left!.map((e) => e.localName)).not.toContain('svg');
    expect(descendantsIn(left!, doc.body)).toEqual(descendants(doc.body));
  });

  it('are not returned when the clean-up moved elements (unwrapped <noscript>, shadow roots)', () => {
    const unwrapped = parseHtmlDocument(page(`<div id="app"></div><noscript><div><p>${lorem(8)}</p></div></noscript>`));
    expect(removeInvisible(unwrapped.documentElement)).toBeUndefined();
    const shadow = parseHtmlDocument(
      page('<my-card><template shadowrootmode="open"><p><slot></slot></p></template><b>Light</b></my-card>'),
    );
    expect(removeInvisible(shadow.documentElement)).toBeUndefined();
  });
});

describe('documentBase on the elements left', () => {
  it('finds the <base> a walk finds, none inside what the clean-up removed', () => {
    const doc = parseHtmlDocument(
      page('<p>Text</p>', '<title>t</title><noscript><base href="/hidden/"></noscript><base href="/docs/"><base href="/second/">'),
    );
    const root = doc.documentElement;
    const left = removeInvisible(root)!;
    const url = 'https://site.test/a/b.html';
    expect(documentBase(doc, url, [root, ...left])).toBe('https://site.test/docs/');
    expect(documentBase(doc, url, [root, ...left])).toBe(documentBase(doc, url));
  });
});

describe('guardedElements', () => {
  it('is the document’s element walk, its body’s depth read in the same walk', () => {
    const doc = parseHtmlDocument(SAMPLE);
    expect(elementsAndDepth(doc, doc.body)).toEqual({ elements: descendants(doc), depth: measureDom(doc.body).maxDepth });
    expect(guardedElements(doc)).toEqual(descendants(doc));
  });

  it('flattens a body deeper than MAX_DEPTH first, then walks it', () => {
    const deep = `${'<div>'.repeat(MAX_DEPTH + 20)}deep words${'</div>'.repeat(MAX_DEPTH + 20)}`;
    const doc = parseHtmlDocument(page(`<p>top</p>${deep}`));
    expect(elementsAndDepth(doc, doc.body)!.depth).toBe(MAX_DEPTH + 20);
    const all = guardedElements(doc);
    expect(measureDom(doc.body).maxDepth).toBeLessThanOrEqual(MAX_DEPTH);
    expect(all).toEqual(descendants(doc));
    expect(doc.body.textContent).toContain('deep words');
  });
});

describe('findChoiceLabels over the element list', () => {
  it('finds the labels its own walk finds', () => {
    const doc = parseHtmlDocument(
      page('<label><input type="checkbox"> Size M</label><input type="radio" id="r"><label for="r">Red</label><label>Name <input></label>'),
    );
    const body = doc.body;
    const labels = findChoiceLabels(body, descendantsIn(descendants(doc), body));
    expect([...labels].map((l) => l.textContent?.trim())).toEqual(['Size M', 'Red']);
    expect(labels).toEqual(findChoiceLabels(body));
  });
});
