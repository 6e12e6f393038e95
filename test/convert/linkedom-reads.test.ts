import { createRequire } from 'node:module';
import * as linkedom from 'linkedom';
import { describe, expect, it } from 'vitest';
import { descendants } from '../../src/convert/dom-utils.js';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import {
  AUDITED_READS,
  commentsBelow,
  deepestElement,
  elementNames,
  firstElementBelow,
  linkedomReadsApplied,
  normaliseClass,
  readNames,
  readsHash,
} from '../../src/convert/linkedom-reads.js';

// linkedom's CommonJS build is a module instance of its own: stock linkedom, untouched by the change.
const stock = createRequire(import.meta.url)('linkedom') as typeof linkedom;

const page =
  '<!doctype html><html><head><title>t</title><style>p{}</style></head><body class="  page  page main\tx ">' +
  '<div id="a" class="post  content post"><p class="lead">One <b class="Q q">two</b> three</p>' +
  '<table><tr><td class="c">cell <i>in</i></td></tr></table><!-- note --><template><p class="t">hidden</p><i>t</i></template>' +
  '<svg class="icon  icon"><path class="p"/></svg><br>tail<noscript><span>n</span></noscript></div>' +
  '<ul class="list"><li class="item">1</li><li class=" item ">2<ul><li>2.1</li></ul></li></ul>' +
  '<pre><code class="lang-js">x</code></pre><article><h2 class="">H</h2><input type="checkbox"></article></body></html>';

const parse = (lib: typeof linkedom, html = page) => (lib.parseHTML(html) as unknown as { document: Document }).document;

/** The elements below `root` as linkedom's own sibling getters give them, in document order. */
function siblingOrder(root: ParentNode): Element[] {
  const out: Element[] = [];
  const visit = (n: ParentNode) => {
    for (let c = n.firstElementChild; c; c = c.nextElementSibling) {
      out.push(c);
      visit(c);
    }
  };
  visit(root);
  return out;
}

/** Everything the fast paths answer, on one document: class reads, walks, type selectors. */
function answers(doc: Document, walk: (root: ParentNode) => Element[]): unknown[] {
  const all = walk(doc);
  const name = (e: Element | null | undefined) => (e ? `${e.localName}.${e.getAttribute('class')}` : null);
  const out: unknown[] = [all.map(name)];
  out.push(all.map((e) => [e.getAttribute('class'), (e as HTMLElement).className, e.hasAttribute('class'), e.getAttribute('id')]));
  for (const sel of ['table', 'li', 'div, ul', 'TEMPLATE', 'svg', 'article', 'pre', 'p.lead', 'body']) {
    out.push(all.map((e) => name(e.closest(sel))));
    out.push(name(doc.querySelector(sel)), Array.from(doc.querySelectorAll(sel)).map(name));
    out.push(all.map((e) => Array.from(e.querySelectorAll(sel)).map(name)));
  }
  out.push(walk(doc.body).length, walk(doc.querySelector('ul')!).map(name));
  // Class changes through every route, then the page as HTML.
  const [b, li, td] = [doc.querySelector('b')!, doc.querySelector('li')!, doc.querySelector('td')!];
  b.classList.add('r', 'q');
  li.className = ' x  y x ';
  td.setAttribute('class', 'k\tk  l');
  const made = doc.createElement('span');
  made.className = ' m  n m ';
  doc.body.appendChild(made);
  for (const e of [b, li, td, made])
    out.push([e.getAttribute('class'), (e as HTMLElement).className, Array.from(e.classList as unknown as Iterable<string>)]);
  doc.querySelector('p')!.removeAttribute('class');
  out.push(doc.querySelector('p')!.getAttribute('class'), doc.querySelector('p')!.classList.length);
  out.push(doc.documentElement.outerHTML);
  return out;
}

describe('linkedom class reads, element walks and type selectors (linkedom-reads.ts)', () => {
  it('applies to the installed linkedom, whose sources are the audited ones', () => {
    htmlToMarkdown('<p>x</p>'); // loads the conversion pipeline, which applies the change
    expect(readsHash()).toBe(AUDITED_READS);
    expect(linkedomReadsApplied()).toBe(true);
  });

  it('answers exactly as stock linkedom: class and id reads, walks, closest and querySelector(All), the serialised page', () => {
    htmlToMarkdown('<p>x</p>');
    const patched = answers(parse(linkedom), descendants);
    expect(patched).toEqual(answers(parse(stock), siblingOrder));
    // The walk is the patched one, not a fallback: same elements as the sibling getters.
    const doc = parse(linkedom);
    expect(descendants(doc).map((e) => e.localName)).toEqual(siblingOrder(doc).map((e) => e.localName));
    expect(descendants(doc).some((e) => e.localName === 'path')).toBe(true);
  });

  it('builds no DOMTokenList per element while parsing or reading a class, where stock linkedom builds one per classed element', () => {
    htmlToMarkdown('<p>x</p>');
    const html = `<html><body>${'<div class="a  b"><p class="c">x</p></div>'.repeat(50)}</body></html>`;
    const lists = (doc: Document) => {
      const els = siblingOrder(doc);
      for (const e of els) e.getAttribute('class');
      const key = Object.getOwnPropertySymbols(doc.body).find((s) => s.description === 'classList')!;
      return els.filter((e) => (e as unknown as Record<symbol, unknown>)[key]).length;
    };
    expect(lists(parse(stock, html))).toBeGreaterThanOrEqual(100);
    expect(lists(parse(linkedom, html))).toBe(0);
  });

  it('finds the first element below a node that passes a test, as the full walk does', () => {
    htmlToMarkdown('<p>x</p>');
    const doc = parse(linkedom);
    const tests: Array<(e: Element) => boolean> = [
      (e) => e.localName === 'li',
      (e) => e.getAttribute('class') === 'p',
      (e) => e.localName === 'i',
      (e) => e.localName === 'base',
      () => true,
    ];
    for (const root of [doc, doc.body, doc.querySelector('ul')!, doc.querySelector('pre')!])
      for (const test of tests) expect(firstElementBelow(root, test)).toBe(descendants(root).find(test) ?? null);
    // An element outside <html> (before it) is below the document too.
    const stray = parse(linkedom, '<base href="/a/"><html><head></head><body><base href="/b/"></body></html>');
    expect(firstElementBelow(stray, (e) => e.localName === 'base')?.getAttribute('href')).toBe('/a/');
  });

  it('reads the depth of the deepest element below a node as a walk down the children counts it', () => {
    htmlToMarkdown('<p>x</p>');
    const walked = (root: ParentNode): number => {
      let max = 0;
      for (let c = root.firstElementChild; c; c = c.nextElementSibling) max = Math.max(max, 1 + walked(c));
      return max;
    };
    const doc = parse(linkedom);
    const roots = () => [doc, doc.documentElement, doc.body, doc.querySelector('#a')!, doc.querySelector('ul')!, doc.querySelector('br')!];
    expect(roots().map(deepestElement)).toEqual(roots().map(walked));
    // After the tree changed: a subtree moved deeper, one removed, one made by hand.
    doc.querySelector('li')!.appendChild(doc.querySelector('table')!);
    doc.querySelector('pre')!.remove();
    const made = doc.createElement('div');
    made.innerHTML = '<p><b><i>deep</i></b></p><br>';
    doc.querySelector('i')!.appendChild(made);
    expect(roots().map(deepestElement)).toEqual(roots().map(walked));
    expect(deepestElement(doc.body)).toBeGreaterThan(5);
  });

  it('lists the comments below a node as a walk of the children does, none inside a skipped element', () => {
    htmlToMarkdown('<p>x</p>');
    const walked = (root: Node, skip: (e: Element) => boolean): Comment[] => {
      const out: Comment[] = [];
      for (let c = root.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 8) out.push(c as Comment);
        else if (c.nodeType === 1 && !skip(c as Element)) out.push(...walked(c, skip));
      }
      return out;
    };
    const doc = parse(
      linkedom,
      '<html><body><!--a--><div id="d"><!--b--><p>x<!--c--></p><svg><!--d--><g><!--e--></g></svg><template><!--f--></template></div>' +
        '<math><!--g--></math><![CDATA[h]]><!--i--></body></html>',
    );
    const skips: Array<(e: Element) => boolean> = [() => false, (e) => e.localName === 'svg' || e.localName === 'math', () => true];
    const data = (list: Comment[] | undefined) => list?.map((c) => c.data).join(',');
    for (const root of [doc.body, doc.querySelector('#d')!, doc.querySelector('p')!])
      for (const skip of skips) expect(data(commentsBelow(root, skip))).toBe(data(walked(root, skip)));
    expect(data(commentsBelow(doc.body, () => false))).toBe('a,b,c,d,e,f,g,[CDATA[h]],i');
    expect(data(commentsBelow(doc.body, (e) => e.localName === 'svg'))).toBe('a,b,c,f,g,[CDATA[h]],i');
  });

  it('spells a class value the way DOMTokenList does', () => {
    // Already spelled so (returned as it is) and not: a repeated word early, late, past the 16 words
    // checked pairwise; whitespace other than one space; words that are prefixes of others.
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
    const values = ['', 'a', ' a ', 'a  b\ta', 'a\u00a0b', '\n', 'x y x y z', 'a b', 'a b a', 'ab a b', 'a ab b', 'a b ', ' a b'];
    values.push(
      'a\tb',
      'b a c b',
      words.join(' '),
      [...words, 'w7'].join(' '),
      words.slice(0, 16).join(' '),
      [...words.slice(0, 16), 'w15'].join(' '),
    );
    for (const v of values) expect(normaliseClass(v)).toBe(parse(stock, `<p class="${v}">x</p>`).querySelector('p')!.className);
  });
});

describe('readNames: class, id and role from one walk', () => {
  it('answers what getAttribute and hasAttribute answer, however the attributes were set', () => {
    expect(linkedomReadsApplied()).toBe(true);
    const doc = parse(
      linkedom,
      page.replace('<ul class="list">', '<ul class="list" role="list" id="l" data-x="1"><li role="" id="" class="">e</li>'),
    );
    const els = descendants(doc);
    els[3]!.setAttribute('class', ' z\tz  y ');
    els[4]!.classList.add('added', 'more');
    els[5]!.setAttribute('role', 'navigation');
    els[6]!.setAttribute('id', 'late');
    els[7]!.classList.remove(els[7]!.classList[0] ?? 'none');
    els[8]!.removeAttribute('class');
    // The attribute node changed under an element's token list: className reads the list.
    els[9]!.classList.add('listed');
    els[9]!.getAttributeNode('class')!.value = 'direct  direct';
    const out = elementNames();
    let classed = 0;
    for (const el of els) {
      readNames(el, out);
      expect([out.className, out.hasClass, out.id, out.role]).toEqual([
        el.getAttribute('class') ?? '',
        el.hasAttribute('class'),
        el.getAttribute('id'),
        el.getAttribute('role'),
      ]);
      if (out.hasClass) classed++;
    }
    expect(classed).toBeGreaterThan(10);
  });

  it('asks getAttribute outside an HTML document (XML values are escaped there)', () => {
    const xml = new linkedom.DOMParser().parseFromString('<r><e class="a &amp; b" id="x&lt;" role="r"/></r>', 'text/xml');
    const el = xml.querySelector('e')!;
    const out = readNames(el, elementNames());
    expect([out.className, out.id, out.role]).toEqual([el.getAttribute('class') ?? '', el.getAttribute('id'), el.getAttribute('role')]);
  });
});
