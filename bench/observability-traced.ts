// `traced` (src/channels.ts) of two source trees in one process, interleaved round by round: CPU ns per
// awaited traced call with a subscriber (that does nothing) on every event of its channel, finish applied.
// The plumbing's own cost per traced call, without a request around it (issue 30).
//   npx tsx bench/observability-traced.ts --a /work/wt-base --b . [--rounds 16] [--calls 300000]

import { tracingChannel } from 'node:diagnostics_channel';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { a: { type: 'string' }, b: { type: 'string' }, rounds: { type: 'string' }, calls: { type: 'string' } },
});
if (!values.a || !values.b) throw new Error('--a and --b: the two trees');
type Traced = typeof import('../src/channels.js').traced;
const load = async (tree: string) => ((await import(resolve(tree, 'src/channels.ts'))) as { traced: Traced }).traced;
const trees: [string, Traced][] = [
  ['A', await load(values.a)],
  ['B', await load(values.b)],
];
const ROUNDS = Number(values.rounds ?? 16);
const CALLS = Number(values.calls ?? 300000);

type Context = { n: number; result?: unknown; error?: unknown };
const channel = tracingChannel<unknown, Context>('websift:bench-traced');
const nothing = () => {};
channel.subscribe({ start: nothing, end: nothing, asyncStart: nothing, asyncEnd: nothing, error: nothing });
const finish = (c: Context, failed: boolean) => {
  if (!failed) c.n = 2;
};
const work = async () => 1;
async function run(traced: Traced): Promise<void> {
  for (let i = 0; i < CALLS; i++) await traced(channel, () => ({ n: 1 }), work, finish);
}
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const ns: Record<string, number[]> = { A: [], B: [] };
for (let round = 0; round < ROUNDS + 2; round++) {
  for (const [name, traced] of round % 2 ? trees : [...trees].reverse()) {
    const before = cpu();
    await run(traced);
    if (round >= 2) ns[name]!.push(((cpu() - before) * 1000) / CALLS); // the first two rounds warm up
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
const span = (xs: number[], d: number) => `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;
const ratios = ns.B!.map((x, i) => x / ns.A![i]!);
console.log(
  `ns per traced call (median, min–max of ${ROUNDS} rounds × ${CALLS}): A ${span(ns.A!, 0)}, B ${span(ns.B!, 0)}; B/A paired ${span(ratios, 3)}`,
);
