import { createRequire } from 'node:module';
import * as linkedom from 'linkedom';
import { afterEach, describe, expect, it } from 'vitest';
import { AUDITED_NODE_SOURCES, fastNodesApplied, nodeSourcesHash, setFastNodes } from '../../src/convert/fast-nodes.js';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';

// linkedom's CommonJS build is a module instance of its own: stock linkedom, untouched by the change.
const stock = createRequire(import.meta.url)('linkedom') as typeof linkedom;

const page = `<!doctype html><html><head><title>T</title><meta charset="utf-8"><meta name=x content=y><style>p{}</style><script>var a = "<b>";</script></head>
<body class="x  y x"><div id="a" data-k="v" style="color:red"><p>Some <b>text</b> &amp; more<!-- c --></p>
<template><i>t</i></template><canvas></canvas><svg viewBox="0 0 1 1" class="s"><path d="M0"/><g><title>t</title></g></svg>
<table><tr><td>1</td></tr></table><img src="a.png" alt="x"><br><custom-tag x="1">c</custom-tag>
<![CDATA[ cdata ]]><select><option selected>o</option></select><a href="/x">link</a></div></body></html>`;

/** Every node of a document in list order (elements, their attributes, text, end markers): prototype, own keys, primitive values. */
function nodeShapes(document: Document): string[] {
  const doc = document as unknown as Record<PropertyKey, unknown>;
  const next = Object.getOwnPropertySymbols(doc).find((s) => s.description === 'next')!;
  const out: string[] = [];
  for (let n = doc[next] as Record<PropertyKey, unknown> | null; n; n = n[next] as Record<PropertyKey, unknown> | null) {
    const proto = Object.getPrototypeOf(n);
    const keys = Reflect.ownKeys(n).map((k) => {
      const v = n![k];
      return `${String(k)}=${v === null || typeof v !== 'object' ? JSON.stringify(v) : v === document ? 'doc' : 'object'}`;
    });
    out.push(`${proto === Object.prototype ? 'Object' : proto.constructor.name} ${keys.join(' ')}`);
  }
  return out;
}

/** Counts the Maps built (linkedom's EventTarget constructor builds one per node) while `parse` runs. */
function countMaps(parse: () => void): number {
  const Original = globalThis.Map;
  let built = 0;
  globalThis.Map = class extends Original<unknown, unknown> {
    constructor(entries?: Iterable<readonly [unknown, unknown]> | null) {
      super(entries);
      built++;
    }
  } as MapConstructor;
  try {
    parse();
  } finally {
    globalThis.Map = Original;
  }
  return built;
}

afterEach(() => {
  setFastNodes(true);
});

describe('plain constructors for parsed nodes (fast-nodes.ts)', () => {
  it('applies to the installed linkedom, whose constructors and factories are the audited ones', () => {
    htmlToMarkdown('<p>x</p>'); // loads the conversion pipeline, which applies the change
    expect(nodeSourcesHash(stock.parseHTML)).toBe(AUDITED_NODE_SOURCES);
    expect(fastNodesApplied()).toBe(true);
  });

  it('builds no listener Map per node, where linkedom builds one per element, text, comment and attribute', () => {
    const big = `<html><head><meta name="a" content="b"></head><body>${'<div class="c"><p>Some text <b>here</b></p><svg><path/></svg></div>'.repeat(100)}</body></html>`;
    const fast = countMaps(() => parseHtmlDocument(big));
    setFastNodes(false);
    const slow = countMaps(() => parseHtmlDocument(big));
    expect(slow).toBeGreaterThanOrEqual(800); // 100 × (div, class, p, text, b, text, svg, path)
    expect(fast).toBeLessThan(20);
  });

  it('builds the same nodes as linkedom: prototypes, own properties in order, values, end markers', () => {
    const fast = nodeShapes(parseHtmlDocument(page));
    setFastNodes(false);
    const slow = nodeShapes(parseHtmlDocument(page));
    expect(fast).toEqual(slow);
    expect(fast.length).toBeGreaterThan(60);
    // (Not against the CommonJS instance: linkedom-reads.ts changes how this one stores classes.)
  });

  it('leaves an element class with more in its constructor to linkedom (canvas, template)', () => {
    const { document } = linkedom.parseHTML('<html><body></body></html>');
    const { document: stockDocument } = stock.parseHTML('<html><body></body></html>');
    for (const name of ['canvas', 'template', 'div', 'a', 'custom-x']) {
      const mine = document.createElement(name) as unknown as Record<PropertyKey, unknown>;
      const theirs = stockDocument.createElement(name) as unknown as Record<PropertyKey, unknown>;
      expect(Reflect.ownKeys(mine).map(String)).toEqual(Reflect.ownKeys(theirs).map(String));
      expect(Object.getPrototypeOf(mine).constructor.name).toBe(Object.getPrototypeOf(theirs).constructor.name);
    }
    const template = document.createElement('template') as HTMLTemplateElement;
    template.innerHTML = '<b>x</b>';
    expect(template.content.firstChild?.nodeName).toBe('B');
  });

  it('keeps listeners, serialisation and edits working on the nodes it builds', () => {
    const document = parseHtmlDocument(page);
    const div = document.getElementById('a')!;
    let clicks = 0;
    div.addEventListener('click', () => clicks++);
    (div.querySelector('a') as HTMLElement).click();
    expect(clicks).toBe(1);
    setFastNodes(false);
    const stockDocument = parseHtmlDocument(page);
    expect(document.documentElement.outerHTML).toBe(stockDocument.documentElement.outerHTML);
    expect(div.className).toBe('');
    expect(document.body.className).toBe('x y');
    expect(document.body.classList.contains('y')).toBe(true);
  });

  it('goes back to linkedom when turned off, and converts pages to the same Markdown either way', () => {
    const md = htmlToMarkdown(page, { url: 'https://example.com/' });
    expect(setFastNodes(false)).toBe(false);
    expect(fastNodesApplied()).toBe(false);
    expect(htmlToMarkdown(page, { url: 'https://example.com/' })).toBe(md);
    expect(md).toContain('Some **text** & more');
  });
});
