// The element cap: a page of more than 50,000 start tags is converted up to its 50,000th, so one
// page's conversion has bounded time and memory; pages under it come through unchanged.

import { describe, expect, it } from 'vitest';
import { capElements, MAX_CONVERTED_ELEMENTS } from '../../src/convert/element-cap.js';
import { htmlToMarkdown } from '../../src/index.js';

describe('element cap', () => {
  it('leaves a page within the cap as it is, character for character', () => {
    const page = '<p>a</p>'.repeat(MAX_CONVERTED_ELEMENTS) + ' tail < 3 and <!-- x --> </p>';
    expect(capElements(page)).toBe(page);
  });

  it('cuts a longer page before its first start tag past the cap', () => {
    const page = '<i>x</i>'.repeat(5) + '<b>over</b>';
    expect(capElements(page, 5)).toBe('<i>x</i>'.repeat(5));
    expect(capElements('<div><p>one<p>two', 2)).toBe('<div><p>one');
  });

  it('converts a page of 60,000 elements as its first 50,000', () => {
    const words = (from: number) => Array.from({ length: 30_000 }, (_, i) => `<span>w${from + i} </span>`).join('');
    const page = `<html><body><h1>Start</h1><p>${words(0)}</p><p>${words(30_000)}</p></body></html>`;
    const md = htmlToMarkdown(page);
    expect(md).toContain('w45000 ');
    expect(md).not.toContain('w55000 ');
  });
});
