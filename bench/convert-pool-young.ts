// The conversion worker's young generation (V8's `maxYoungGenerationSizeMb` in the worker's
// resourceLimits): one single-thread pool per setting, each with the conversion pool's worker entry
// and old-generation limit, converting the same pages page by page, the settings' order rotating per
// page; the CPU of the whole process (all threads: V8's parallel scavenge runs on helper threads, not
// on the worker's) around each page. Per round the ratio of each setting's total to the first
// setting's, median and range over rounds (round 0 warms every worker up).
//
//   npx tsx bench/convert-pool-young.ts [--young default,16,48] [--corpus traf] [--limit 100] [--rounds 5]

import { Piscina } from 'piscina';
import { DEFAULT_CONVERSION_MEMORY_MB, workerEntry } from '../src/conversion/conversion-pool.js';
import { type CorpusName, corpusPages } from './lib/convert-corpora.js';
import { median } from './lib/rounds.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const settings = (arg('young') ?? 'default,16,48').split(',');
const corpora = (arg('corpus') ?? 'traf').split(',') as CorpusName[];
const rounds = Number(arg('rounds') ?? 5);
const limit = Number(arg('limit') ?? 100);

const all = [...corpusPages(corpora)];
const step = Math.max(1, all.length / limit);
const pages: { text: string; mimeType: string; finalUrl: string }[] = [];
for (let i = 0; i < all.length && pages.length < limit; i += step) {
  const p = all[Math.floor(i)]!;
  pages.push({ text: p.html, mimeType: 'text/html', finalUrl: p.url ?? 'https://example.com/' });
}

const pools = settings.map(
  (s) =>
    new Piscina({
      ...workerEntry(),
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: 600_000,
      resourceLimits: {
        maxOldGenerationSizeMb: DEFAULT_CONVERSION_MEMORY_MB,
        ...(s === 'default' ? {} : { maxYoungGenerationSizeMb: Number(s) }),
      },
    }),
);

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
console.log(`${pages.length} pages of ${corpora.join(',')}; young generation: ${settings.join(', ')} (MiB)`);
const markdowns: Set<string>[] = [];
const ratios: number[][] = settings.map(() => []);
const perPage: number[][] = settings.map(() => []);
for (let r = 0; r <= rounds; r++) {
  const totals = settings.map(() => 0);
  for (let i = 0; i < pages.length; i++) {
    for (let k = 0; k < settings.length; k++) {
      const s = (k + i + r) % settings.length;
      const t = cpu();
      const { markdown } = (await pools[s]!.run(pages[i])) as { markdown: string };
      if (r === 0) (markdowns[i] ??= new Set()).add(markdown);
      totals[s]! += cpu() - t;
    }
  }
  console.log(`round ${r}: ${settings.map((s, k) => `${s} ${(totals[k]! / 1000 / pages.length).toFixed(2)}`).join(', ')} ms/page`);
  if (r === 0) {
    console.log(`Markdown differs between settings on ${markdowns.filter((m) => m.size > 1).length} pages`);
    continue;
  }
  settings.forEach((_, k) => {
    ratios[k]!.push(totals[k]! / totals[0]!);
    perPage[k]!.push(totals[k]! / 1000 / pages.length);
  });
}
const fmt = (v: number[], d: number) => `${median(v).toFixed(d)} (${Math.min(...v).toFixed(d)}–${Math.max(...v).toFixed(d)})`;
for (let k = 0; k < settings.length; k++)
  console.log(`${settings[k]}: ${fmt(perPage[k]!, 2)} ms/page, / ${settings[0]} ${fmt(ratios[k]!, 3)}`);
await Promise.all(pools.map((p) => p.destroy()));
