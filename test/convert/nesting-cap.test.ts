// The parser's nesting cap: pages within it pass through untouched; deeper open tags are removed
// so the parser's per-tag cost (proportional to the depth) stays bounded.

import { describe, expect, it } from 'vitest';
import { measureDom } from '../../src/convert/dom-guard.js';
import { capNesting, MAX_PARSE_DEPTH } from '../../src/convert/nesting-cap.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';

describe('capNesting', () => {
  it('returns a page within the cap unchanged', () => {
    const page =
      '<!doctype html><html><head><title>a<b>c</title><script>if (a<b) "<div>".repeat(9)</script></head>' +
      '<body><!-- <div><div> --><p>one<p>two<ul><li>a<li>b</ul><table><tr><td>x<td>y<tr><td>z</table>' +
      '<svg><![CDATA[<div>]]><path/></svg><a title="x>y" href=u>link</a><br/><img src=i></body></html>';
    expect(capNesting(page, 8)).toBe(page);
    expect(capNesting(`<div>${'<p>text'.repeat(50_000)}</div>`, 10)).toBe(`<div>${'<p>text'.repeat(50_000)}</div>`);
  });

  it('caps a page of one start tag more than the cap, and returns one of exactly the cap unread', () => {
    // Each open element takes a start tag: a page with no more than the cap cannot pass it (the scan is skipped).
    expect(capNesting('<div><div><div>x', 3)).toBe('<div><div><div>x');
    expect(capNesting('<div><div><div><div>x', 3)).toBe('<div><div><div>x');
    expect(capNesting('<div><div><div><b>x</b>', 3)).toBe('<div><div><div>x</b>');
  });

  it('follows the parser through implied closes: 10,000 unclosed <td>, <li> and <p> are not deep', () => {
    for (const tag of ['td', 'li', 'p', 'option', 'dd']) {
      const page = `<html><body><table><tr>${`<${tag}>a`.repeat(10_000)}</table></body></html>`;
      expect(capNesting(page, 20)).toBe(page);
    }
  });

  it('removes the open tags past the cap and keeps their text', () => {
    // 45,000: under the element cap (element-cap.ts), which parseHtmlDocument applies first.
    const page = `<html><body>${'<b>x'.repeat(45_000)}end</body></html>`;
    const capped = capNesting(page);
    expect(capped.length).toBeLessThan(page.length);
    const doc = parseHtmlDocument(page);
    expect(measureDom(doc.documentElement).maxDepth).toBeLessThanOrEqual(MAX_PARSE_DEPTH);
    const text = doc.body.textContent ?? '';
    expect(text.length).toBe(45_000 + 'end'.length);
    expect(text.endsWith('xend')).toBe(true);
  });

  it('keeps the closing tags of kept elements matched: text after a deep subtree stays outside it', () => {
    const page = `<html><body><main>${'<div>'.repeat(5_000)}deep${'</div>'.repeat(5_000)}</main><p>after</p></body></html>`;
    const doc = parseHtmlDocument(page);
    const after = Array.from(doc.body.children).at(-1);
    expect(after?.textContent).toBe('after');
    expect(doc.body.textContent).toContain('deep');
  });

  it('reads markup after an HTML <![CDATA[ as a browser does: it counts towards the depth', () => {
    const page = `<html><body><![CDATA[>${'<div>'.repeat(3_000)}deep${'</div>'.repeat(3_000)}]]></body></html>`;
    const doc = parseHtmlDocument(page);
    expect(measureDom(doc.documentElement).maxDepth).toBeLessThanOrEqual(MAX_PARSE_DEPTH + 2);
    expect(doc.body.textContent).toContain('deep');
  });
});
