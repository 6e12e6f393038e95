// What a few Node 20 operations on a search's path cost, each in a tight loop (CPU ns per operation,
// median of 5 rounds after a warm-up): the items issue 33's third pass cut from a charged search
// (docs/benchmarks.md, "Search overhead", "Issue 33, third pass").
//   npx tsx bench/search-node-costs.ts
// (tsx compiles this file only; the loops call Node's own code.)

type Op = (i: number) => unknown;

let sink: unknown;
function nsPerOp(op: Op, n: number): number {
  for (let i = 0; i < 100_000; i++) sink = op(i);
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) sink = op(i);
    const c = process.cpuUsage(c0);
    rounds.push(((c.user + c.system) * 1000) / n);
  }
  return rounds.sort((a, b) => a - b)[2]!;
}

const LANE = Symbol('lane');
const descriptor: PropertyDescriptor = {
  get(this: { [LANE]: { s: number } }) {
    return this[LANE].s;
  },
  enumerable: true,
  configurable: true,
};
const lane = { s: 1 };
let lastTime = Number.NaN;
let lastIso = '';
const shared = new AbortController().signal;
const listener = () => {};

const ops: [string, Op, number][] = [
  ['new AbortController() (signal not read)', () => new AbortController(), 300_000],
  ['new AbortController().signal', () => new AbortController().signal, 300_000],
  ['Date.now()', () => Date.now(), 2_000_000],
  ['new Date(t).toISOString(), a new ms each time', (i) => new Date(1.7e12 + i).toISOString(), 1_000_000],
  [
    'the same, shared within a ms (32 calls per ms)',
    (i) => {
      const t = 1.7e12 + (i >> 5);
      if (t !== lastTime) {
        lastIso = new Date(t).toISOString();
        lastTime = t;
      }
      return lastIso;
    },
    1_000_000,
  ],
  [
    '{ limit } + own signal getter (defineProperty)',
    (i) => Object.defineProperty({ limit: i, [LANE]: lane }, 'signal', descriptor),
    2_000_000,
  ],
  [
    'add + remove an abort listener (a used signal)',
    () => {
      shared.addEventListener('abort', listener, { once: true });
      shared.removeEventListener('abort', listener);
    },
    500_000,
  ],
];

console.log(`Node ${process.version}, CPU ns per operation, median of 5 rounds\n`);
console.log('| operation | ns |');
console.log('|---|---|');
for (const [name, op, n] of ops) console.log(`| ${name} | ${nsPerOp(op, n).toFixed(0)} |`);
void sink;
