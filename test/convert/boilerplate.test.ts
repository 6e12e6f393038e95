import { describe, expect, it } from 'vitest';
import { findBoilerplate } from '../../src/convert/model/boilerplate.js';
import { computeTextStats } from '../../src/convert/model/text-stats.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { lorem } from './fixtures.js';

const bodyOf = (html: string) => parseHtmlDocument(`<html><body>${html}</body></html>`).body;
/** What the page reads like without what findBoilerplate found (removed here, in the test only). */
const removeBoilerplate = (body: Element) => {
  const found = findBoilerplate(body);
  for (const el of found) expect(found.has(el.parentElement!)).toBe(false); // outermost only
  for (const el of found) el.remove();
};

describe('findBoilerplate', () => {
  it('removes chrome elements, landmark roles and widgets named by class or id', () => {
    const body = bodyOf(`<nav>N1</nav><div role="navigation">N2</div><div class="share-buttons">S1</div><div id="cookie-consent">C1</div>
      <div class="social_links">S2</div><p>${lorem(10)}</p>`);
    removeBoilerplate(body);
    const text = body.textContent ?? '';
    for (const gone of ['N1', 'N2', 'S1', 'C1', 'S2']) expect(text).not.toContain(gone);
    expect(text).toContain('content0');
  });

  it('matches class words, not substrings (a "shareholder" report stays)', () => {
    const body = bodyOf(`<div class="shareholder-report">Kept text</div><div class="navigator">Also kept</div><p>${lorem(5)}</p>`);
    removeBoilerplate(body);
    expect(body.textContent).toContain('Kept text');
    expect(body.textContent).toContain('Also kept');
  });

  it('ignores layout state classes and slug ids ("sidebar-enabled--false", "menu-innovation-strategies-…")', () => {
    const body = bodyOf(`<div class="article sidebar-enabled--false">StateClassKept</div>
      <div id="menu-innovation-strategies-today">SlugIdKept</div><section id="cookies">AnchorKept</section><p>${lorem(10)}</p>`);
    removeBoilerplate(body);
    for (const kept of ['StateClassKept', 'SlugIdKept', 'AnchorKept']) expect(body.textContent).toContain(kept);
  });

  it('never removes an element that holds most of the text, whatever its class', () => {
    const body = bodyOf(`<div class="page-header-layout"><p>${lorem(20)}</p></div><div class="sidebar">side</div>`);
    removeBoilerplate(body);
    expect(body.textContent).toContain('content0');
    expect(body.textContent).not.toContain('side');
  });

  it('removes link lists (menus, pagination) but keeps lists of real items and prose with links', () => {
    const body = bodyOf(`<ul id="m"><li><a href="/1">One</a></li><li><a href="/2">Two</a></li><li><a href="/3">Three</a></li></ul>
      <ul id="k"><li>First real item of the list</li><li>Second real item</li></ul>
      <p>Prose with <a href="/x">a link</a> inside a much longer sentence of ordinary words.</p><p>${lorem(10)}</p>`);
    removeBoilerplate(body);
    expect(body.querySelector('#m')).toBeNull();
    expect(body.querySelector('#k')).not.toBeNull();
    expect(body.textContent).toContain('Prose with');
  });

  it('removes control labels by their whole text only', () => {
    const body = bodyOf(`<p>${lorem(10)}</p><a href="#">Add to cart</a><button>Read more</button><span>Register</span>
      <p>Register early to get a seat at the workshop.</p>`);
    removeBoilerplate(body);
    const text = body.textContent ?? '';
    expect(text).not.toContain('Add to cart');
    expect(text).not.toMatch(/^\s*Register\s*$/m);
    expect(text).toContain('Register early');
  });
});

describe('computeTextStats', () => {
  it('counts words and link words bottom-up', () => {
    const body = bodyOf('<div><p>one two <a href="/">three four</a></p><a href="/">five</a></div>');
    const s = computeTextStats(body).get(body)!;
    expect(s).toEqual({ words: 5, linkWords: 3, links: 2 });
  });
});
