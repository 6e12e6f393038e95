import { performance } from 'node:perf_hooks';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { measureDom } from '../../src/convert/dom-guard.js';
import { removeInvisible } from '../../src/convert/clean-dom.js';
import { readStructuredData } from '../../src/convert/structured-data.js';
import { absolutizeLinks } from '../../src/convert/links.js';
import { markCodeLanguages } from '../../src/convert/code-language.js';
import { prepareTables } from '../../src/convert/tables.js';
import { runReadability } from '../../src/convert/readability-extract.js';
import { cleanedCandidate } from '../../src/convert/main-content.js';
import { createTurndown } from '../../src/convert/turndown-service.js';
import { plainReadabilityMarkdown } from './baseline.js';
import { loadIndex, loadPage } from './wcxb-data.js';
const T: Record<string, number> = {};
const td = createTurndown();
for (const e of loadIndex().filter((x) => (process.env.IDS ?? "").split(",").includes(x.id) || !process.env.IDS).slice(0, 60)) {
  const p = loadPage(e);
  let t = performance.now();
  const lap = (k: string) => { const n = performance.now(); T[k] = (T[k] ?? 0) + n - t; t = n; };
  plainReadabilityMarkdown(p.html); lap('BASELINE');
  const doc = parseHtmlDocument(p.html); lap('parse');
  measureDom(doc.body); lap('measure');
  readStructuredData(doc); lap('jsonld');
  removeInvisible(doc.documentElement); lap('invisible');
  absolutizeLinks(doc.body, p.url); markCodeLanguages(doc.body); lap('links+code');
  prepareTables(doc.body); lap('tables');
  const a = runReadability(doc); lap('readability(+clone)');
  const c = cleanedCandidate(doc); lap('cleaned');
  td.turndown((a?.content ?? c.element) as any); lap('turndown');
}
console.log(Object.fromEntries(Object.entries(T).map(([k, v]) => [k, Math.round(v / 60)])));
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
{
  let a = 0, b = 0;
  const slow: Array<[string, number, number]> = [];
  for (const e of loadIndex().filter((x) => (process.env.IDS ?? "").split(",").includes(x.id) || !process.env.IDS).slice(0, 60)) {
    const p = loadPage(e);
    let t = performance.now(); htmlToMarkdown(p.html, { url: p.url }); const x = performance.now() - t; a += x;
    t = performance.now(); plainReadabilityMarkdown(p.html); const y = performance.now() - t; b += y;
    slow.push([e.id, Math.round(x), Math.round(y)]);
  }
  console.log('ours', a / 60, 'base', b / 60);
  console.log(slow.sort((p, q) => q[1] - q[2] - (p[1] - p[2])).slice(0, 8));
}
