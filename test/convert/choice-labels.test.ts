// Labels of live checkboxes and radios (a shop's filters) are controls: a kept block holding only
// such a label is dropped; task lists, other labels and mixed blocks stay.

import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { segmentBlocks } from '../../src/convert/model/blocks.js';
import { dropChoiceLabels, findChoiceLabels } from '../../src/convert/model/choice-labels.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';

/** The texts of the blocks left when every block was kept and the rule ran. */
function keptTexts(html: string): string[] {
  const body = parseHtmlDocument(`<html><body>${html}</body></html>`).body;
  const labels = findChoiceLabels(body);
  for (const input of Array.from(body.querySelectorAll('input'))) input.remove(); // as clean-up does
  const blocks = segmentBlocks(body).filter((b) => b.tokens > 0);
  const kept = new Set(blocks.map((b) => b.id));
  dropChoiceLabels(blocks, kept, labels);
  return blocks.filter((b) => kept.has(b.id)).map((b) => b.text.replace(/\s+/g, ' ').trim());
}

describe('choice labels', () => {
  it('drops a block that is a checkbox label, or holds one, or sits inside one', () => {
    const texts = keptTexts(`
      <ul><li><label><input type="checkbox"> GeForce RTX 4090</label></li></ul>
      <div><label><input type="radio" name="s"><div>Size M</div></label></div>
      <p>Product text stays here.</p>`);
    expect(texts).toEqual(['Product text stays here.']);
  });

  it('finds a label by its for attribute, only when it names a live checkbox or radio', () => {
    const texts = keptTexts(`
      <div><input type="checkbox" id="c1"><label for="c1">Blue colour</label></div>
      <div><input type="text" id="t1"><label for="t1">Your email</label></div>
      <div><input type="checkbox" id="c2" disabled><label for="c2">Done task</label></div>`);
    expect(texts).toEqual(['Your email', 'Done task']);
  });

  it('finds a label whose box comes after it, and one of several in document order, from one pass over the page', () => {
    const body = parseHtmlDocument(
      `<html><body><label for="late">Late box</label><p>text</p><label><span><input type="RADIO"></span> Held</label>
       <label for="none">No box</label><INPUT type="checkbox" id="late"></body></html>`,
    ).body;
    expect([...findChoiceLabels(body)].map((l) => l.textContent?.trim())).toEqual(['Late box', 'Held']);
  });

  it('keeps a CSS-only accordion\'s question (a checkbox toggles its answer), not "Remember me?"', () => {
    const texts = keptTexts(`
      <div><input type="checkbox" id="q1" class="toggle"><label for="q1">How long does shipping take?</label><div>Two days.</div></div>
      <div><label><input type="checkbox"> Remember me?</label></div>`);
    expect(texts).toEqual(['How long does shipping take?', 'Two days.']);
  });

  it('keeps a task list (disabled boxes) and a block with words beyond its labels', () => {
    const texts = keptTexts(`
      <ul><li><label><input type="checkbox" disabled checked> Write the tests</label></li></ul>
      <p>Choose <label><input type="radio" name="p"> monthly</label> billing to pay less each year.</p>
      <p>Выберите <label><input type="radio" name="d"> вариант</label> доставки сегодня.</p>`);
    expect(texts).toEqual(['Write the tests', 'Choose monthly billing to pay less each year.', 'Выберите вариант доставки сегодня.']);
  });

  it("htmlToMarkdown leaves a shop grid's filter boxes out and keeps its cards", () => {
    const filters = Array.from(
      { length: 12 },
      (_, i) => `<li><label><input type="checkbox"><span>FilterBrand${i} running shoes</span></label></li>`,
    ).join('');
    const cards = Array.from(
      { length: 8 },
      (_, i) =>
        `<li class="product"><h3><a href="/p/${i}">Trail shoe model ${i}</a></h3><p>A light trail shoe with a grippy sole, number ${i}.</p><p>$${90 + i}.00</p></li>`,
    ).join('');
    const html = `<html><head><title>Shoes</title></head><body><main><h1>Trail shoes</h1><div class="layout"><ul>${filters}</ul><ul class="grid">${cards}</ul></div></main></body></html>`;
    const md = htmlToMarkdown(html, { url: 'https://shop.test/c/trail' });
    expect(md).toContain('A light trail shoe with a grippy sole, number 7.');
    expect(md).not.toContain('FilterBrand');
  });
});
