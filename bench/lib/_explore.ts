import { Readability } from '@mozilla/readability';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { removeInvisible } from '../../src/convert/clean-dom.js';
import { removeBoilerplate } from '../../src/convert/boilerplate.js';
import { absolutizeLinks } from '../../src/convert/links.js';
import { markCodeLanguages } from '../../src/convert/code-language.js';
import { prepareTables } from '../../src/convert/tables.js';
import { createTurndown } from '../../src/convert/turndown-service.js';
import { tidyMarkdown } from '../../src/convert/markdown-tidy.js';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { stripMarkdown } from './strip-markdown.js';
import { loadIndex, loadPage } from './wcxb-data.js';
import { scorePage } from './wcxb-metric.js';

const limit = Number(process.argv[2] ?? 300);
const td = createTurndown();
const md = (el: Element) => tidyMarkdown(td.turndown(el as any));
const entries = loadIndex().filter((e) => e.split === 'train').slice(0, limit);
const cands = ['ours', 'bodyChrome', 'bodyHints', 'bodyAll', 'mainAll'] as const;
const rows: unknown[] = [];
const sums: Record<string, Record<string, number[]>> = {};
for (const e of entries) {
  const p = loadPage(e);
  const doc = parseHtmlDocument(p.html);
  removeInvisible(doc.documentElement);
  absolutizeLinks(doc.body, p.url); markCodeLanguages(doc.body); prepareTables(doc.body);
  const res: Record<string, string> = {};
  res.ours = htmlToMarkdown(p.html, { url: p.url });
  const b1 = doc.body.cloneNode(true) as Element; removeBoilerplate(b1, { hints: false, linkLists: false }); res.bodyChrome = md(b1);
  const b2 = doc.body.cloneNode(true) as Element; removeBoilerplate(b2, { linkLists: false }); res.bodyHints = md(b2);
  const b3 = doc.body.cloneNode(true) as Element; removeBoilerplate(b3); res.bodyAll = md(b3);
  const main = b3.querySelector('main, [role="main"]');
  res.mainAll = main && main.textContent.trim().length > 200 ? md(main) : res.bodyAll;
  const row: Record<string, number> = {};
  for (const c of cands) row[c] = scorePage(stripMarkdown(res[c]!), p.mainContent).f1;
  for (const t of [p.pageType, 'ALL']) {
    sums[t] ??= {};
    for (const c of [...cands, 'oracle']) (sums[t]![c] ??= []).push(c === 'oracle' ? Math.max(...cands.map((k) => row[k]!)) : row[c]!);
  }
  const toks: Record<string, number> = {};
  for (const c of cands) toks[c] = (stripMarkdown(res[c]!).match(/\w+/g) ?? []).length;
  rows.push({ id: e.id, type: p.pageType, f1: row, toks, ref: (p.mainContent.match(/\w+/g) ?? []).length,
    hasMain: !!main, jsonld: [...p.html.matchAll(/"@type"\s*:\s*"(\w+)"/g)].map((m) => m[1]).slice(0, 8) });
}
for (const [t, m] of Object.entries(sums)) {
  console.log(t.padEnd(14), Object.entries(m).map(([c, v]) => `${c}=${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(3)}`).join(' '), 'n=' + m.ours!.length);
}

import { writeFileSync } from 'node:fs';
writeFileSync(process.argv[3] ?? '/tmp/h4/explore.json', JSON.stringify(rows));
