// The node handler's cost in instructions against the matched Fastify route and the floor (the servers of
// bench/http-handler-ab.ts, bench/lib/handler-servers.ts), which a loaded 2-core machine does not blur.
// The servers run in one process under `valgrind --tool=callgrind`, warmed up, instrumented from then on;
// a client child valgrind does not follow sends batches of requests to each server in turn, and the
// counters are zeroed before each batch and dumped after it (callgrind_control), so each dump holds one
// batch: every thread of the server process (V8's compiler and GC threads too). A major GC falls in whichever
// batch runs when the heap reaches its limit (one every ~3 batches of 3,000), so a batch holding one reads up
// to 2x the others: each dump is split by callgrind_annotate into V8's GC, its compilers and the rest (the
// code serving the requests), and the rest's per-round ratios are the figure the GC does not blur. (A forced
// full GC before each batch, with or without --single-threaded-gc, made every batch dearer and noisier:
// 0.8-1.5M instructions a request against ~0.5M.) Prints instructions per request per server and the
// per-round ratios, median (min–max), for all instructions, the rest, and the GC.
//   npx tsx bench/http-handler-instructions.ts [--rounds 5] [--warmup 2000] [--requests 600] [--repeat] [--baseline DIST]
// A run's dumps kept (KEEP=1) are read again with the same flags and --dumps <their path without .N>.

import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startHandlerServers } from './lib/handler-servers.js';
import { sendCounted } from './lib/load-client.js';
import { spread } from './lib/rounds.js';

const { values } = parseArgs({
  options: {
    client: { type: 'boolean' },
    server: { type: 'boolean' },
    rounds: { type: 'string' },
    warmup: { type: 'string' },
    requests: { type: 'string' },
    repeat: { type: 'boolean' },
    baseline: { type: 'string' },
    dumps: { type: 'string' },
  },
});
const self = fileURLToPath(import.meta.url);
const ROUNDS = Number(values.rounds ?? 5);
const WARMUP = Number(values.warmup ?? 2000);
const REQUESTS = Number(values.requests ?? 600);

/** V8's garbage collector and compilers, by the C++ names callgrind_annotate lists (the rest is the code serving requests). */
const GC =
  /Scaveng|MarkCompact|Heap::|heap::|Sweeper|Marking|Evacuat|RememberedSet|MemoryChunk|MemoryAllocator|PagedSpace|NewSpace|Visitor|IterateObjectCache|SizeFromMap|Pretenuring|WeakObjects|Ephemeron|Safepoint|FreeList|SlotSet|GlobalHandles|MarkBit|cppgc/;
const COMPILER =
  /compiler::|turboshaft|maglev|Maglev|Pipeline|baseline::|BytecodeGenerator|v8::internal::Parser|OptimizingCompileDispatcher|Compiler::/;

interface Batch {
  url: string;
  headers: Record<string, string>;
  requests: number;
}

if (values.client) {
  // The load client: one batch per message, 16 kept-alive connections; answers how many failed.
  process.on('message', (batch: Batch) => {
    void sendCounted(batch.url, batch.headers, batch.requests, 16).then((failed) => process.send!({ failed }));
  });
} else if (values.server) {
  await serverMode();
} else if (values.dumps) {
  report(dumpsOf(values.dumps), batchOrder());
} else {
  await parentMode();
}

/** Under callgrind: says `MEASURE <name>` before each measured batch and `MEASURED` after, waiting for SIGUSR2 each time. */
async function serverMode() {
  const servers = await startHandlerServers(values.baseline);
  const client: ChildProcess = fork(self, ['--client'], { execArgv: ['--import', 'tsx'] });
  let series = 0;
  const send = (name: string, requests: number) =>
    new Promise<void>((resolve, reject) => {
      client.once('message', (m) => ((m as { failed: number }).failed > 0 ? reject(new Error(`requests to ${name} failed`)) : resolve()));
      // sendCounted appends a running id: a new query each request, unless --repeat (an ignored parameter then).
      const query = values.repeat ? 'same+query&n=' : `b${series++}+`;
      client.send({
        url: `http://127.0.0.1:${servers.ports[name]}/api/search?q=${query}`,
        headers: { authorization: servers.authorization },
        requests,
      } satisfies Batch);
    });
  // The listener stays for the whole run: without one, a SIGUSR2 kills the process.
  let wake = () => {};
  process.on('SIGUSR2', () => wake());
  /** Writes `line`, then waits for the parent's SIGUSR2. */
  const say = (line: string) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      process.stdout.write(line);
    });
  const names = Object.keys(servers.ports);
  for (const name of names) await send(name, WARMUP);
  await say('WARM\n');
  for (let round = 0; round < ROUNDS; round++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]!;
      await say(`MEASURE ${name}\n`);
      await send(name, REQUESTS);
      await say('MEASURED\n');
    }
  client.kill();
  await servers.close();
  process.exit(0);
}

async function parentMode() {
  const out = join(tmpdir(), `websift-handler-ir-${process.pid}.callgrind`);
  const args = ['--server', '--rounds', String(ROUNDS), '--warmup', String(WARMUP), '--requests', String(REQUESTS)];
  if (values.repeat) args.push('--repeat');
  if (values.baseline) args.push('--baseline', values.baseline);
  const child = spawn(
    'valgrind',
    // --no-flush-bytecode: each server's code idles while the others run (minutes under callgrind), and V8
    // would drop it at a major GC and recompile it mid-batch, which a server in use never does.
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--no-flush-bytecode',
      '--import',
      'tsx',
      self,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const control = (...flags: string[]) => execFileSync('callgrind_control', [...flags, String(child.pid)], { stdio: 'ignore' });
  const order: string[] = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line === 'WARM') control('-i', 'on');
    else if (line.startsWith('MEASURE ')) {
      order.push(line.slice('MEASURE '.length));
      control('-z');
    } else if (line === 'MEASURED') control('-d');
    else continue;
    child.kill('SIGUSR2');
  }
  await exited;
  const dumps = dumpsOf(out);
  try {
    report(dumps, order);
  } finally {
    if (!process.env.KEEP) for (const file of [out, ...dumps]) rmSync(file, { force: true });
  }
}

/** The dumps `<out>.<n>`, in order (the last one, at exit, holds the shutdown). */
function dumpsOf(out: string): string[] {
  return readdirSync(dirname(out))
    .filter((f) => f.startsWith(`${basename(out)}.`))
    .map((f) => join(dirname(out), f))
    .sort((a, b) => Number(a.slice(a.lastIndexOf('.') + 1)) - Number(b.slice(b.lastIndexOf('.') + 1)));
}

/** The servers' batches in the order serverMode runs them (for --dumps: a run's kept dumps read again). */
function batchOrder(): string[] {
  const names = ['floor', 'handler', ...(values.baseline ? ['baseline'] : []), 'matched'];
  return Array.from(
    { length: ROUNDS * names.length },
    (_, i) => names[(Math.floor(i / names.length) + (i % names.length)) % names.length]!,
  );
}

/** A batch's instructions: all, and those of V8's garbage collector and of its compilers (all threads). */
interface Split {
  total: number;
  gc: number;
  compiler: number;
}

/** A dump's instructions by V8 function (callgrind_annotate, every function): GC and compiler apart. */
function splitOf(file: string): Split {
  const listing = execFileSync('callgrind_annotate', ['--threshold=100', '--inclusive=no', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const split: Split = { total: Number(/^totals: (\d+)/m.exec(readFileSync(file, 'utf8'))?.[1]), gc: 0, compiler: 0 };
  for (const line of listing.split('\n')) {
    const cost = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!cost || cost[2]!.includes('PROGRAM TOTALS')) continue;
    const n = Number(cost[1]!.replaceAll(',', ''));
    if (GC.test(cost[2]!)) split.gc += n;
    else if (COMPILER.test(cost[2]!)) split.compiler += n;
  }
  return split;
}

/**
 * Per server, instructions per request: all of them, and apart the part outside V8's garbage collector and
 * compilers (the code that serves the requests). A major GC falls in whichever batch is running when the
 * heap reaches its limit (about one every few batches): it blurs the totals, not the part outside it.
 */
function report(dumps: string[], order: string[]): void {
  if (dumps.length < order.length) throw new Error(`${dumps.length} dumps for ${order.length} batches`);
  const splits = order.map((_, i) => splitOf(dumps[i]!));
  const names = [...new Set(order)];
  const per = (f: (s: Split) => number) => {
    const values: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    order.forEach((name, i) => values[name]!.push(f(splits[i]!) / REQUESTS));
    return values;
  };
  const k = (x: number) => `${(x / 1000).toFixed(1)}k`;
  console.log(
    `Instructions per ${values.repeat ? 'free repeat' : 'charged search'} over HTTP (server process, callgrind), ${ROUNDS} rounds of ${REQUESTS} requests per server, warm-up ${WARMUP}, 16 connections, Node ${process.version}`,
  );
  const parts: [string, (s: Split) => number][] = [
    ['all', (s) => s.total],
    ['outside GC and compilers', (s) => s.total - s.gc - s.compiler],
    ['GC', (s) => s.gc],
  ];
  for (const [label, f] of parts) {
    const ir = per(f);
    console.log(`${label}: ${names.map((name) => `${name} ${spread(ir[name]!, k)}`).join(', ')}`);
    const ratio = (a: string, b: string) => ir[a]!.map((x, i) => x / ir[b]![i]!);
    const pairs: [string, string][] = [
      ['handler', 'matched'],
      ['floor', 'matched'],
      ['handler', 'floor'],
    ];
    if (ir.baseline) pairs.push(['baseline', 'matched'], ['handler', 'baseline']);
    console.log(`  per-round ratios: ${pairs.map(([a, b]) => `${a}/${b} ${spread(ratio(a, b), 3)}`).join(', ')}`);
  }
}
