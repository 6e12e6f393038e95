// Two source trees' access logs (src/cli/request-log.ts) alone, in one process: the same stand-in request
// (a websift:http context, a search's context with one answering source, its end published) through tree A's
// log, tree B's, and each tree without a log, in blocks interleaved in rotating order, lines batched as serve
// does (buffered-lines.ts, to a destination that discards them). Prints ns per request of each, the log's
// own cost (log − off, paired by round) and B/A of the log blocks: a change to the line's code measured hot,
// both sides under the same load (the in-process and HTTP benches move by more than the log costs).
//   npx tsx bench/access-log-trees.ts --a /work/wt-base --b . [--blocks 24] [--requests 20000]

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { a: { type: 'string' }, b: { type: 'string' }, blocks: { type: 'string' }, requests: { type: 'string' } },
});
if (!values.a || !values.b) throw new Error('--a and --b: the two trees');
const BLOCKS = Number(values.blocks ?? 24);
const N = Number(values.requests ?? 20000);

type Channels = typeof import('../src/channels.js');
type Log = ReturnType<typeof import('../src/cli/request-log.js')['createRequestLog']>;
let sunk = 0;
const destination = { write: (chunk: Buffer) => (sunk += chunk.length) };

async function tree(dir: string) {
  const root = resolve(dir);
  const ch = (await import(`${root}/src/channels.ts`)) as Channels;
  const { createRequestLog } = (await import(`${root}/src/cli/request-log.ts`)) as typeof import('../src/cli/request-log.js');
  const { bufferedLines } = (await import(`${root}/src/cli/buffered-lines.ts`)) as typeof import('../src/cli/buffered-lines.js');
  const { newRequestId } = (await import(`${root}/src/http/request-id.ts`)) as typeof import('../src/http/request-id.js');
  const open = () => {
    const lines = bufferedLines({ destination });
    const log = createRequestLog({ format: 'json', stream: lines, say: () => {} });
    return { log, close: () => (log.close(), lines.close()) };
  };
  return { ch, open, newRequestId };
}
type Tree = Awaited<ReturnType<typeof tree>>;

let n = 0;
/** N requests through `log` (or none): what the HTTP bindings and the engine publish, and the line. */
function block({ ch, newRequestId }: Tree, log: Log | undefined): void {
  const { http, search } = ch.channels;
  for (let i = 0; i < N; i++) {
    const req = { method: 'GET', url: `/api/search?q=term+${n++}` };
    const res = { headersSent: true, statusCode: 200, getHeader: () => undefined };
    let trace: InstanceType<Channels['HttpTrace']> | undefined;
    const next = () => {
      trace = new ch.HttpTrace(newRequestId(), 'GET', '/api/search', '/api/search', undefined, undefined);
      if (http.start.hasSubscribers) http.start.publish(trace);
    };
    const entry = log ? log.open(req as never, res as never, next) : (next(), undefined);
    trace!.organization = 'bench';
    const call = new ch.CallTrace('search', 'bench', trace);
    ch.noteSource(call, 'bench', 'primary', true);
    call.credits = 1;
    call.outcome = 'success';
    if (search.asyncEnd.hasSubscribers) search.asyncEnd.publish(call);
    trace!.status = 200;
    if (entry) log!.done(entry);
  }
}

const trees = { A: await tree(values.a), B: await tree(values.b) };
const jobs = (['A', 'B'] as const).flatMap((t) => [false, true].map((withLog) => ({ t, withLog, key: `${t} ${withLog ? 'log' : 'off'}` })));
const ns: Record<string, number[]> = {};
for (let b = 0; b < BLOCKS; b++) {
  for (let j = 0; j < jobs.length; j++) {
    const { t, withLog, key } = jobs[(j + b) % jobs.length]!;
    const opened = withLog ? trees[t].open() : undefined;
    const cpu = process.cpuUsage();
    block(trees[t], opened?.log);
    const used = process.cpuUsage(cpu);
    opened?.close();
    (ns[key] ??= []).push(((used.user + used.system) * 1000) / N);
  }
}

const warm = (xs: number[]) => xs.slice(Math.floor(xs.length / 4)); // the first quarter: warm-up
const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
const at = (xs: number[], q: number) => sorted(xs)[Math.round(q * (xs.length - 1))]!;
const span = (xs: number[], digits: number) =>
  `${at(xs, 0.5).toFixed(digits)} (${at(xs, 0.25).toFixed(digits)}–${at(xs, 0.75).toFixed(digits)})`;
const of = (key: string) => warm(ns[key]!);
const minus = (xs: number[], ys: number[]) => xs.map((x, i) => x - ys[i]!);
console.log(
  `A ${resolve(values.a)}, B ${resolve(values.b)}; ${BLOCKS} blocks of ${N} requests (the first quarter left out), median (quartiles)`,
);
for (const key of ['A off', 'A log', 'B off', 'B log']) console.log(`${key}: ${span(of(key), 0)} ns/request`);
console.log(
  `the log's own (log − off): A ${span(minus(of('A log'), of('A off')), 0)} ns, B ${span(minus(of('B log'), of('B off')), 0)} ns`,
);
console.log(
  `B/A, log blocks: ${span(
    of('B log').map((x, i) => x / of('A log')[i]!),
    3,
  )}× (${sunk} bytes written)`,
);
