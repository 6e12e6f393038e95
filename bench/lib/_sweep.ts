import { tuning } from '../../src/convert/main-content.js';
import { aggregate, PAGE_TYPES, runQuality } from './quality-run.js';
const [key, ...vals] = process.argv.slice(2);
const limit = Number(process.env.LIMIT ?? 300);
for (const v of vals) {
  (tuning as Record<string, number>)[key!] = Number(v);
  const rows = runQuality({ split: 'train', limit, baseline: false });
  const a = aggregate(rows);
  console.log(key, v, 'F1', a.f1.toFixed(3), PAGE_TYPES.map((t) => `${t.slice(0, 4)}=${aggregate(rows.filter((r) => r.pageType === t)).f1.toFixed(3)}`).join(' '), `without=${a.pagesWithWithout}`, `ms=${a.msPerPage.toFixed(0)}`);
}
