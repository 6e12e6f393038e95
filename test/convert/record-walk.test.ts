import { describe, expect, it } from 'vitest';
import { memoizedAncestorTest } from '../../src/convert/dom-utils.js';
import { analyzeHtml } from '../../src/convert/html-to-markdown.js';
import { aboveRecords, recordAncestorTest, recordInside } from '../../src/convert/model/record-walk.js';
import { isEntry } from '../../src/convert/model/story.js';

const page = (htmlAttrs: string) =>
  analyzeHtml(
    `<html ${htmlAttrs}><body><div id="a" class="post hentry"><p>One paragraph of the post with some words in it.</p>` +
      `<section id="s"><p>Another paragraph, inside a section of the post.</p></section></div>` +
      `<aside id="b"><ul><li>First link line here</li><li>Second link line here</li></ul></aside>` +
      `<article id="c"><p>An entry of its own, with a sentence of text.</p></article></body></html>`,
  )!;

describe('record walks (record-walk.ts) answer as the DOM walks do', () => {
  for (const attrs of ['', 'class="hentry"']) {
    it(`recordAncestorTest equals memoizedAncestorTest, with and without a stop (<html ${attrs}>)`, () => {
      const { rows } = page(attrs);
      const post = rows.blocks[0]!.el.ownerDocument.getElementById('a')!;
      const dom = memoizedAncestorTest(isEntry, (e) => e === post);
      const rec = recordAncestorTest(
        rows,
        (a) => isEntry(a.el),
        (a) => a.el === post,
        aboveRecords(rows, isEntry, (e) => e === post),
      );
      const domAll = memoizedAncestorTest(isEntry);
      const recAll = recordAncestorTest(rows, (a) => isEntry(a.el), null, aboveRecords(rows, isEntry));
      // Asked twice: the second answers come from the memo.
      for (let round = 0; round < 2; round++)
        for (const b of rows.blocks) {
          expect(rec(b.el)).toBe(dom(b.el));
          expect(recAll(b.el)).toBe(domAll(b.el));
        }
      // <html class="hentry"> is above the records: only `aboveRecords` sees it.
      expect(rows.blocks.every((b) => recAll(b.el))).toBe(attrs !== '');
    });
  }

  it('recordInside equals contains, for containers below body and for <html> above it', () => {
    const { rows } = page('');
    const doc = rows.blocks[0]!.el.ownerDocument;
    for (const container of [doc.getElementById('a')!, doc.getElementById('s')!, doc.getElementById('b')!, doc.body, doc.documentElement]) {
      const inside = recordInside(rows, container);
      for (const b of rows.blocks) expect(inside(b.el)).toBe(container.contains(b.el));
    }
  });

  it("each record's number is its place among the records, a parent's before its children's", () => {
    const { rows } = page('');
    [...rows.names.values()].forEach((a, i) => {
      expect(a.index).toBe(i);
      if (a.up) expect(a.up.index).toBeLessThan(i);
      expect(a.up?.el ?? null).toBe(a.el.localName === 'body' ? null : a.el.parentElement);
      expect(a.role).toBe(a.el.getAttribute('role'));
    });
  });
});
