// Two source trees' observability cost side by side (issue 30): bench/observability-subscribers.ts of tree A
// and of tree B (each its own code: a worktree of the base, one of the change), one process per variant and
// tree, interleaved round by round in rotating order, so that both see the same machine. Prints, per
// variant, CPU µs per request (median, min–max over the rounds), B/A paired by round (median, min–max), and
// each tree's on/off ratio per round (median): what a cut saved, without sockets.
//   npx tsx bench/observability-trees.ts --a /work/wt-base --b . [--variants off,log,all] [--rounds 8]
//     [--warmup 10000] [--requests 20000]

import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    variants: { type: 'string' },
    rounds: { type: 'string' },
    warmup: { type: 'string' },
    requests: { type: 'string' },
  },
});
if (!values.a || !values.b) throw new Error('--a and --b: the two trees');
const TREES = { A: resolve(values.a), B: resolve(values.b) };
const VARIANTS = (values.variants ?? 'off,log,all').split(',');
const ROUNDS = Number(values.rounds ?? 8);
const WARMUP = values.warmup ?? '10000';
const REQUESTS = values.requests ?? '20000';

/** One process of `tree`'s subscribers bench: its CPU µs per measured request. */
function once(tree: string, variant: string): Promise<number> {
  const args = ['tsx', 'bench/observability-subscribers.ts', '--variant', variant, '--warmup', WARMUP, '--requests', REQUESTS];
  return new Promise((done, fail) =>
    execFile('npx', args, { cwd: tree, maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) return fail(error);
      const line = stdout.trim().split('\n').at(-1)!;
      done((JSON.parse(line) as { cpuUsPerRequest: number }).cpuUsPerRequest);
    }),
  );
}

const us: Record<string, Record<string, number[]>> = { A: {}, B: {} };
const jobs = VARIANTS.flatMap((variant) => (['A', 'B'] as const).map((tree) => ({ tree, variant })));
for (let round = 0; round < ROUNDS; round++) {
  // Rotating order: no job always first (or last) in its round.
  for (let i = 0; i < jobs.length; i++) {
    const { tree, variant } = jobs[(i + round) % jobs.length]!;
    const figure = await once(TREES[tree], variant);
    (us[tree]![variant] ??= []).push(figure);
  }
  // Each round's figures as they come: a run cut short still says something.
  const figures = jobs.map(({ tree, variant }) => `${tree} ${variant} ${us[tree]![variant]!.at(-1)!.toFixed(1)}`);
  process.stderr.write(`round ${round + 1}/${ROUNDS}: ${figures.join(', ')}\n`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const span = (xs: number[], digits: number) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
const paired = (xs: number[], ys: number[]) => xs.map((x, i) => x / ys[i]!);

console.log(`A ${TREES.A}, B ${TREES.B}; ${ROUNDS} rounds, warm-up ${WARMUP}, ${REQUESTS} requests, Node ${process.version}`);
console.log('| variant | A µs/request | B µs/request | B/A (paired) | A on/off | B on/off |');
console.log('|---|---|---|---|---|---|');
for (const variant of VARIANTS) {
  const a = us.A![variant]!;
  const b = us.B![variant]!;
  const offA = us.A!.off;
  const offB = us.B!.off;
  const onOff = (xs: number[], off: number[] | undefined) => (off && variant !== 'off' ? `${median(paired(xs, off)).toFixed(3)}×` : '');
  console.log(`| ${variant} | ${span(a, 1)} | ${span(b, 1)} | ${span(paired(b, a), 3)}× | ${onOff(a, offA)} | ${onOff(b, offB)} |`);
}
