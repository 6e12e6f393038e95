// Victim latency under a hostile tenant (issue 32, item 1): one organization keeps ten extracts of
// ten slow pages (49,000-cell tables, seconds each to convert) in flight, re-sending each as it ends;
// another organization extracts one ordinary page at a time. Engine defaults (the pool sized from
// the cores, 15 s per page, 30 s per request, backlog 50, the rate limit of 10 requests/s per
// organization: the attacker waits out each 429 and goes on), a loopback page server, the real clock.
// The baseline is the same victim extract in the same process with no attacker: each round runs 20 of
// them, then `seconds` under attack (the attacker's requests drained before the next round's baseline);
// each figure is the median (min–max) over rounds, the p50 ratio taken per round.
//
//   WEBSIFT_CONVERSION_WORKER=<bundle> npx tsx bench/hostile-tenant.ts [seconds=60] [rounds=3]
//
// <bundle>: the worker bundled as test/global-setup.ts does (workers then start as from the built
// package; without it each worker compiles the converter through tsx, seconds on a loaded host).
//
// Figures go to docs/benchmarks.md ("Hostile tenant").

import { createEngine } from '../src/index.js';
import { startPageServer } from '../src/testing/page-server.js';
import { spread } from './lib/rounds.js';

const seconds = Number(process.argv[2] ?? 60);
const ROUNDS = Number(process.argv[3] ?? 3);
const REQUESTS = 10;
const PAGES = 10;

const html = (body: string) => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body });
const table = `<!doctype html><html><head><title>Inventory</title></head><body><main><h1>Inventory</h1><table>${(
  '<tr>' + Array.from({ length: 7 }, (_, c) => `<td>${c}`).join('')
).repeat(7_000)}</table></main></body></html>`;
const article = `<!doctype html><html><head><title>Ordinary</title></head><body><article><h1>Ordinary</h1>${'<p>Some words of the article body, long enough to count as content.</p>'.repeat(30)}</article></body></html>`;

const server = await startPageServer({ '/table': html(table), '/article': html(article) });
const engine = createEngine({ allowPrivateNetwork: true, robots: false });
await engine.admin.createOrganization('attacker', { credits: 1_000_000 });
await engine.admin.createOrganization('victim', { credits: 1_000_000 });
const attacker = { organization: 'attacker' };
const victim = { organization: 'victim' };

let seq = 0;
interface Sample {
  ms: number;
  outcome: string;
}
async function victimExtract(): Promise<Sample> {
  const t0 = performance.now();
  try {
    const res = await engine.extract({ urls: [server.url(`/article?v=${seq++}`)] }, victim);
    return { ms: performance.now() - t0, outcome: res.results[0]?.success ? 'ok' : (res.results[0]?.error_type ?? 'failed') };
  } catch (error) {
    return { ms: performance.now() - t0, outcome: (error as Error).name };
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};
const summary = (samples: Sample[]) => {
  const ms = samples.map((s) => s.ms);
  const outcomes: Record<string, number> = {};
  for (const s of samples) outcomes[s.outcome] = (outcomes[s.outcome] ?? 0) + 1;
  return { n: samples.length, p50: Math.round(pct(ms, 0.5)), p90: Math.round(pct(ms, 0.9)), max: Math.round(Math.max(...ms)), outcomes };
};

// The attack: REQUESTS extracts of PAGES slow pages, each re-sent as soon as it ends.
const pages: Record<string, number> = {};
let attackerCredits = 0;
let rateLimited = 0;
let stop = false;
let attackRound = 0;
async function attackLoop(r: number): Promise<void> {
  for (let round = 0; !stop; round++) {
    const urls = Array.from({ length: PAGES }, (_, i) => server.url(`/table?a=${attackRound}&r=${r}&round=${round}&i=${i}`));
    try {
      const res = await engine.extract({ urls }, attacker);
      attackerCredits += res.metadata.credits_used;
      for (const x of res.results)
        pages[x.success ? 'ok' : (x.error_type ?? 'failed')] = (pages[x.success ? 'ok' : (x.error_type ?? 'failed')] ?? 0) + 1;
    } catch (error) {
      const { name, rateLimit } = error as Error & { rateLimit?: { retryAfter: number } };
      if (rateLimit) {
        rateLimited++;
        await new Promise((r) => setTimeout(r, Math.max(50, rateLimit.retryAfter * 1000)));
      } else pages[`request ${name}`] = (pages[`request ${name}`] ?? 0) + PAGES;
    }
  }
}

await victimExtract(); // the pool warm
const rounds: { base: ReturnType<typeof summary>; under: ReturnType<typeof summary> }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Baseline: no attacker.
  const baseline: Sample[] = [];
  for (let i = 0; i < 20; i++) baseline.push(await victimExtract());
  stop = false;
  attackRound = round;
  const loops = Array.from({ length: REQUESTS }, (_, r) => attackLoop(r));
  await new Promise((r) => setTimeout(r, 3_000)); // the attacker's pages fetched and queued
  const attacked: Sample[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    attacked.push(await victimExtract());
    await new Promise((r) => setTimeout(r, 500));
  }
  stop = true;
  await Promise.all(loops);
  rounds.push({ base: summary(baseline), under: summary(attacked) });
}

type Figure = 'n' | 'p50' | 'p90' | 'max';
const of = (side: 'base' | 'under', k: Figure) =>
  spread(
    rounds.map((r) => r[side][k]),
    0,
  );
const outcomes = (side: 'base' | 'under') => {
  const all: Record<string, number> = {};
  for (const r of rounds) for (const [k, v] of Object.entries(r[side].outcomes)) all[k] = (all[k] ?? 0) + v;
  return all;
};
console.log(`${ROUNDS} rounds of 20 baseline victim extracts, then ${seconds} s under attack; median (min–max) over rounds, ms`);
console.log('| | victim extracts per round | p50 | p90 | max | outcomes (all rounds) |');
console.log('|---|---|---|---|---|---|');
for (const [label, side] of [
  ['baseline (no attacker)', 'base'],
  ['under attack', 'under'],
] as const)
  console.log(
    `| ${label} | ${of(side, 'n')} | ${of(side, 'p50')} | ${of(side, 'p90')} | ${of(side, 'max')} | ${JSON.stringify(outcomes(side))} |`,
  );
console.log(
  `p50 under attack / baseline p50, per round: ${spread(
    rounds.map((r) => r.under.p50 / r.base.p50),
    (x) => `${x.toFixed(1)}×`,
  )}`,
);
console.log(`attacker, all rounds: pages ${JSON.stringify(pages)}; credits ${attackerCredits}; rate-limited ${rateLimited}`);
await engine.close();
await server.close();
