// Pages in parts on real pages converted by the project's converter: the demo corpus (corpus/, always
// here) and 12 pages of WCXB dev and 12 of trafilatura-eval (when ../shared/data holds them; skipped
// with a message otherwise). Paging reaches the end and the pieces join back to the whole content; no
// piece and no set of query passages is ever over its budget (markers aside); passages are the page's
// own text.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrafilaturaHtml, loadTrafilaturaIndex, trafilaturaAvailable } from '../../bench/lib/trafilatura-data.js';
import { loadIndex, loadPage, wcxbAvailable, wcxbDir } from '../../bench/lib/wcxb-data.js';
import { documentToMarkdown } from '../../src/convert/document-to-markdown.js';
import { pagePart } from '../../src/passages/index.js';
import { pieceOf, readAll } from './pieces.js';

const CORPUS = join(import.meta.dirname, '..', '..', 'corpus');
const demo = readdirSync(CORPUS)
  .filter((f) => /\.(html|md)$/.test(f))
  .map((f) => ({
    name: f,
    md: documentToMarkdown({
      mimeType: f.endsWith('.md') ? 'text/markdown' : 'text/html',
      text: readFileSync(join(CORPUS, f), 'utf8'),
      finalUrl: `https://example.test/${f}`,
    }),
  }));

const wcxb = wcxbAvailable()
  ? loadIndex()
      .slice(0, 12)
      .map((e) => {
        const p = loadPage(e);
        return { name: `wcxb ${e.id}`, md: documentToMarkdown({ mimeType: 'text/html', text: p.html, finalUrl: p.url }) };
      })
  : [];
const trafilatura = trafilaturaAvailable()
  ? loadTrafilaturaIndex()
      .slice(0, 12)
      .map((e) => ({
        name: `trafilatura ${e.id}`,
        md: documentToMarkdown({ mimeType: 'text/html', text: loadTrafilaturaHtml(e), finalUrl: e.url }),
      }))
  : [];
if (wcxb.length === 0) console.warn(`real-page passages: WCXB and trafilatura-eval pages skipped (no data at ${wcxbDir()})`);

const pages = [...demo, ...wcxb, ...trafilatura].filter((p) => p.md.length > 0);
const SKIP = '[…]';

describe('pages in parts on real pages', () => {
  it('there are real pages to read', () => {
    expect(demo.length).toBeGreaterThan(10);
  });

  it.each(pages.map((p) => [p.name, p.md] as const))('%s: paging reaches the end and the pieces join back', (_name, md) => {
    for (const budget of [300, 2_000]) {
      const { pieces, texts } = readAll(md, 'markdown', budget);
      expect(pieces.join('')).toBe(md);
      for (const [i, piece] of pieces.entries()) {
        expect(piece.length).toBeLessThanOrEqual(budget);
        if (i < pieces.length - 1) expect(texts[i]).not.toBe(piece); // a marker says where to read on
      }
    }
  });

  it.each(pages.map((p) => [p.name, p.md] as const))(
    "%s: query passages stay within the budget and are the page's own text",
    (_name, md) => {
      // A query of words from the page's last paragraph.
      const words = md.slice(Math.floor(md.length * 0.7)).match(/\p{L}{5,}/gu) ?? ['page'];
      const query = words.slice(0, 3).join(' ');
      for (const budget of [200, 1_000, 4_000]) {
        const part = pagePart(md, 'markdown', { query, maxChars: budget });
        const units = part.text.split('\n\n');
        const body = units.filter((u) => u !== SKIP).join('\n\n');
        expect(body.length).toBeLessThanOrEqual(budget);
        expect(part.truncated).toBe(md.length > budget ? units.includes(SKIP) : false);
        // Every unit but a cut fallback's is a slice of the page (code pieces are inside their fences).
        for (const u of units)
          if (u !== SKIP && !u.startsWith('```')) expect(md.includes(u) || md.includes(pieceOf(u).trimEnd())).toBe(true);
      }
    },
  );
});
