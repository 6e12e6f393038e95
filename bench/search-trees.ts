// Search CPU of several builds of websift in one process, interleaved: each tree's compiled dist/ is loaded
// side by side (its own module graph), one engine per tree (ledger SQLite in memory, rate limit off, one
// zero-latency scripted source of 10 results), its organization's repeat partition filled first (10,000
// charged searches), then rounds that time N distinct charged searches per tree in rotating order.
// Prints CPU µs per search, median (min–max) over rounds, and each tree's ratio to the first tree per round.
// Build a tree (old code from `git worktree add /work/old-c05b54a c05b54a`) into a scratch dir that can
// resolve node_modules and loads .js as ES modules:
//   (cd TREE && npx tsc -p tsconfig.build.json --outDir /tmp/t-old/dist)
//   ln -s /work/main/node_modules /tmp/t-old/node_modules; echo '{"type":"module"}' > /tmp/t-old/package.json
//   npx tsx bench/search-trees.ts --tree old=/tmp/t-old/dist --tree new=/tmp/t-new/dist [--n 5000] [--rounds 7]
//   (--repeat: free repeats instead of charged searches; --ledger: the SQLite ledger alone, reserve + settle)
// (this file only times: nothing it loads is compiled by tsx, so tsx's wrappers are not in the figures).

import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    tree: { type: 'string', multiple: true },
    n: { type: 'string' },
    rounds: { type: 'string' },
    fill: { type: 'string' },
    repeat: { type: 'boolean' },
    ledger: { type: 'boolean' },
  },
});
const N = Number(values.n ?? 5000);
const ROUNDS = Number(values.rounds ?? 7);
const FILL = Number(values.fill ?? 10_000);
const trees = (values.tree ?? []).map((spec) => {
  const at = spec.indexOf('=');
  return { name: spec.slice(0, at), dist: spec.slice(at + 1) };
});
if (trees.length === 0) throw new Error('give at least one --tree name=/path/to/dist');

const results = Array.from({ length: 10 }, (_, i) => ({
  title: `Title ${i}`,
  url: `https://example.com/${i}`,
  snippet: 'A snippet of text.',
}));

interface AnyEngine {
  search(params: { q: string }, auth: { organization: string }): Promise<unknown>;
  admin: { createOrganization(id: string, options: { credits: number }): Promise<unknown> };
  close(): Promise<void>;
}

let serial = 0;
const bodies: { name: string; body: () => Promise<unknown>; engine: { close(): Promise<void> } }[] = [];
/** --ledger: the SQLite ledger alone (in memory), one reserve and one charging settle per call, time-ordered ids. */
async function ledgerBody(dist: string) {
  const { openSqlite } = await import(pathToFileURL(`${dist}/adapters/sqlite/database.js`).href);
  const { sqliteLedger } = await import(pathToFileURL(`${dist}/adapters/sqlite/ledger.js`).href);
  const ids = await import(pathToFileURL(`${dist}/core/books/request-id.js`).href).catch(
    () => import(pathToFileURL(`${dist}/core/request-id.js`).href),
  );
  const ledger = sqliteLedger(openSqlite({}));
  await ledger.createOrganization('bench', 1e12, 0);
  const next: () => string = ids.timeOrderedIds({ now: () => Date.now(), sleep: async () => {} });
  const body = async () => {
    const id = next();
    await ledger.reserve({ id, organization: 'bench', amount: 1 }, 0);
    await ledger.settle({ id, organization: 'bench', kind: 'search', charged: 1, answered: true });
  };
  for (let i = 0; i < FILL; i++) await body();
  return { body, engine: ledger as { close(): Promise<void> } };
}
for (const { name, dist } of trees) {
  if (values.ledger) {
    bodies.push({ name, ...(await ledgerBody(dist)) });
    continue;
  }
  const lib = await import(pathToFileURL(`${dist}/index.js`).href);
  const testing = await import(pathToFileURL(`${dist}/testing/scripted-source.js`).href);
  const engine: AnyEngine = lib.createEngine({
    sources: [testing.scriptedSource('zero', () => ({ results }))],
    rateLimit: false,
  });
  await engine.admin.createOrganization('bench', { credits: 1e12 });
  for (let i = 0; i < FILL; i++) await engine.search({ q: `fill ${name} ${i}` }, { organization: 'bench' });
  const body = values.repeat
    ? () => engine.search({ q: 'same query' }, { organization: 'bench' })
    : () => engine.search({ q: `charged ${serial++}` }, { organization: 'bench' });
  bodies.push({ name, body, engine });
}

async function cpuPerCall(body: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await body();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / N;
}

for (const { body } of bodies) await cpuPerCall(body); // warm-up round
const cpu = new Map<string, number[]>(bodies.map((b) => [b.name, []]));
const ratio = new Map<string, number[]>(bodies.map((b) => [b.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const figures = new Map<string, number>();
  for (let k = 0; k < bodies.length; k++) {
    const { name, body } = bodies[(round + k) % bodies.length]!;
    figures.set(name, await cpuPerCall(body));
  }
  const base = figures.get(bodies[0]!.name)!;
  for (const [name, x] of figures) {
    cpu.get(name)!.push(x);
    ratio.get(name)!.push(x / base);
  }
}
for (const { engine } of bodies) await engine.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[], f: (x: number) => string) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
console.log(
  `${values.ledger ? 'ledger reserve + settle alone' : values.repeat ? 'free repeats' : 'charged searches'}, ledger in memory, N = ${N} per tree per round, ${ROUNDS} ` +
    `interleaved rounds after a warm-up, ${FILL} charged searches filled first, Node ${process.version}\n`,
);
console.log(`| tree | CPU µs/search | vs ${bodies[0]!.name} |`);
console.log('|---|---|---|');
for (const { name } of bodies) {
  console.log(`| ${name} | ${spread(cpu.get(name)!, (x) => x.toFixed(1))} | ${spread(ratio.get(name)!, (x) => `${x.toFixed(2)}×`)} |`);
}
