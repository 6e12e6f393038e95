// Hostile input must complete and keep its text: deep nesting (recursive DOM code is super-linear in
// depth, turndown overflows its stack near 5,000), huge element counts, and a 10 MiB page.
// The time limits are generous "it completes" bounds on CPU time (a busy machine does not stretch
// them), not performance assertions.

import { describe, expect, it } from 'vitest';
import { hostilePage } from '../../bench/lib/hostile-pages.js';
import { flattenDeepNodes, MAX_DEPTH, measureDom } from '../../src/convert/dom-guard.js';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { createTurndown, turndownInPlace } from '../../src/convert/markdown/turndown-service.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { withCpuMs } from '../support/cpu-time.js';

// Wall time is no bound here: only a hang. Under a load of 30 on 2 cores a page of seconds of CPU took over
// 30 s of wall time (past vitest's default 20 s).
describe('hostile HTML', { timeout: 180_000 }, () => {
  it('flattens nesting 5,000 deep and keeps the innermost text', () => {
    const html = `<html><body>${'<div>'.repeat(5000)}<p>deep inner text</p>${'</div>'.repeat(5000)}<p>after</p></body></html>`;
    const { result: md, cpuMs } = withCpuMs(() => htmlToMarkdown(html));
    expect(md).toContain('deep inner text');
    expect(cpuMs).toBeLessThan(15_000);
  });

  it('measures and flattens depth without recursion', () => {
    // Built node by node: the parser itself caps nesting (nesting-cap.ts).
    const doc = parseHtmlDocument('<html><body></body></html>');
    let el: Element = doc.body;
    for (let i = 0; i < 30_000; i++) el = el.appendChild(doc.createElement('span'));
    el.textContent = 'x';
    expect(measureDom(doc.body).maxDepth).toBe(30_000);
    flattenDeepNodes(doc.body);
    expect(measureDom(doc.body).maxDepth).toBeLessThanOrEqual(MAX_DEPTH);
    expect(doc.body.textContent).toContain('x');
  });

  // Sizes stay under the element cap (50,000 start tags, element-cap.ts), which would cut the end off.
  it('reads a host with 12,000 declarative shadow roots once (only the first renders)', () => {
    const html = `<html><body><x-a>${'<template shadowrootmode="open"><p>Shadow words here.</p><slot></slot></template>'.repeat(12_000)}${'<p>light words</p>'.repeat(12_000)}</x-a></body></html>`;
    const { result: md, cpuMs } = withCpuMs(() => htmlToMarkdown(html));
    expect(md.match(/Shadow words/g)).toHaveLength(1);
    expect(md).toContain('light words');
    expect(cpuMs).toBeLessThan(15_000);
  });

  it('finds 15,000 checkbox labels in one walk and drops them', () => {
    const boxes = Array.from(
      { length: 15_000 },
      (_, i) => `<div><input type="checkbox" id="f${i}"><label for="f${i}">FilterOption ${i}</label></div>`,
    ).join('');
    // Prose that reads like prose: one sentence forty times over beside 15,000 rows is no page's content.
    const prose = Array.from({ length: 40 }, (_, i) => `Sentence ${i} of the article says something new about topic ${i * 7}.`).join(' ');
    const html = `<html><body><div>${boxes}</div><article><p>${prose}</p></article></body></html>`;
    const { result: md, cpuMs } = withCpuMs(() => htmlToMarkdown(html));
    expect(md).toContain('Sentence 39 of the article says something new');
    expect(md).not.toContain('FilterOption');
    expect(cpuMs).toBeLessThan(15_000);
  });

  it('converts a page of 200,000 elements (its first 50,000: the element cap)', () => {
    const html = `<html><body><article>${'<p>word <b>bold</b></p>'.repeat(100_000)}</article></body></html>`;
    const { result: md, cpuMs } = withCpuMs(() => htmlToMarkdown(html));
    expect(md.startsWith('word **bold**')).toBe(true);
    expect(cpuMs).toBeLessThan(50_000);
  });

  it('converts a 10 MiB page', () => {
    const para = `<p>${'lorem ipsum dolor sit amet '.repeat(40)}</p>`;
    const html = `<html><body><article>${para.repeat(Math.ceil((10 * 1024 * 1024) / para.length))}</article></body></html>`;
    expect(html.length).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    const { result: md, cpuMs } = withCpuMs(() => htmlToMarkdown(html));
    expect(md).toContain('lorem ipsum dolor sit amet');
    expect(cpuMs).toBeLessThan(50_000);
  });

  it('converts <![CDATA[ followed by 30,000 nested elements (the CDATA walk was recursive)', () => {
    const md = htmlToMarkdown(hostilePage('cdata-nested', 30_000));
    expect(md).toContain('Start of the page.');
    expect(md).toContain('deep');
  });

  it('converts 45,000 unclosed <b>, keeping the text at the bottom', () => {
    const bottom = 'A sentence at the bottom of the page, long enough to be read as content by anyone.';
    const md = htmlToMarkdown(hostilePage('unclosed-b', 45_000).replace('end', bottom));
    expect(md).toContain('Start of the page.');
    expect(md).toContain(bottom);
  });

  it('converts 45,000 nested <div>s', () => {
    const md = htmlToMarkdown(hostilePage('nested-div', 45_000));
    expect(md).toContain('deep');
  });

  it('converts a table of 20,000 unclosed <td> cells to one table row', () => {
    const md = htmlToMarkdown(hostilePage('unclosed-td', 20_000));
    const lines = md.split('\n');
    const header = lines.findIndex((line) => line.startsWith('| --- |'));
    expect(lines[header]?.match(/---/g)).toHaveLength(20_000);
    expect(lines[header - 1]).toMatch(/^\| a \| a \|/);
  });

  it('numbers an <ol> of 45,000 items (each item had counted its list again: quadratic)', () => {
    const items = '<li>Step of the procedure.</li>'.repeat(45_000);
    const doc = parseHtmlDocument(`<html><body><ol start="3">${items}</ol><p>after</p></body></html>`);
    const md = turndownInPlace(createTurndown(), doc.body);
    expect(md.startsWith('3. Step of the procedure.\n4. Step')).toBe(true);
    expect(md).toContain('\n45002. Step of the procedure.\n\nafter');
  });

  it('handles unclosed tags, stray closers and binary-looking junk', () => {
    const md = htmlToMarkdown('<div><p>open <b>bold <i>both</div></p></span>\u0000\u0001 tail');
    expect(md).toContain('open');
    expect(md).toContain('tail');
  });
});
