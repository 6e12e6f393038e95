// Observability's cost in instructions (issue 30), which a loaded 2-core machine does not blur: each
// variant's server runs in its own process under `valgrind --tool=callgrind` (one configuration for the
// whole process, as `websift serve` runs: no switching), warmed up, then instrumentation is switched on
// (callgrind_control) around exactly the measured requests; the load client is a child valgrind does not
// follow; a full GC is forced just before the window. Instructions of every thread of the server process are counted (V8's compiler and GC threads
// too). Prints instructions per request, median (min–max) over the rounds, and the ratio to "off"'s
// median; variants run interleaved, one process each per round. Also the main thread's own (the JS that
// runs per request, and the GC work done there; V8's compiler and concurrent marking run on other threads,
// whose counts vary from process to process with when V8 compiles and marks).
//   npx tsx bench/observability-instructions.ts [--rounds 3] [--warmup 3000] [--requests 2000]

import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sendCounted } from './lib/load-client.js';

const { values } = parseArgs({
  options: {
    client: { type: 'boolean' },
    server: { type: 'string' },
    rounds: { type: 'string' },
    warmup: { type: 'string' },
    requests: { type: 'string' },
    only: { type: 'string' },
  },
});
const self = fileURLToPath(import.meta.url);
const WARMUP = Number(values.warmup ?? 3000);
const REQUESTS = Number(values.requests ?? 2000);

type Part = 'log' | 'metrics' | 'otel-noop';
const VARIANTS: Record<string, Part[]> = {
  off: [],
  'JSON access log (as serve)': ['log'],
  'websift/metrics': ['metrics'],
  'websift/otel, no-op tracer': ['otel-noop'],
  "log + metrics + otel no-op (all websift's)": ['log', 'metrics', 'otel-noop'],
};

if (values.client) {
  // The load client: 16 kept-alive connections, each request a new query (routed and charged).
  process.on('message', (m: { url: string; headers: Record<string, string>; requests: number }) => {
    void sendCounted(m.url, m.headers, m.requests, 16).then((failed) => process.send!({ failed }));
  });
  await new Promise(() => {});
} else if (values.server !== undefined) {
  await serverMode(VARIANTS[values.server]!);
} else {
  await parentMode();
}

async function serverMode(parts: readonly Part[]) {
  const { trace } = await import('@opentelemetry/api');
  const { bufferedLines, lineDestination } = await import('../src/cli/buffered-lines.js');
  const { createRequestLog } = await import('../src/cli/request-log.js');
  const { startServer } = await import('../src/cli/server.js');
  const { websiftMetrics } = await import('../src/metrics/index.js');
  const { websiftTracing } = await import('../src/otel/index.js');
  const { searchBenchEngine } = await import('./lib/search-bench.js');
  const { engine, key } = await searchBenchEngine();
  const headers = { authorization: `Bearer ${key}` };
  // As serve: the log's lines buffered and written together (to /dev/null here).
  const requestLog = parts.includes('log')
    ? createRequestLog({
        format: 'json',
        stream: bufferedLines({ destination: lineDestination('/dev/null') }),
        say: () => {},
      })
    : undefined;
  if (parts.includes('metrics')) websiftMetrics({ engine });
  if (parts.includes('otel-noop')) websiftTracing({ tracerProvider: trace.getTracerProvider() });
  const server = await startServer({ engine, host: '127.0.0.1', port: 0, log: () => {}, ...(requestLog ? { requestLog } : {}) });
  const client: ChildProcess = fork(self, ['--client'], { execArgv: ['--import', 'tsx'] });
  const send = (requests: number) =>
    new Promise<void>((resolve, reject) => {
      client.once('message', (m) => ((m as { failed: number }).failed > 0 ? reject(new Error('requests failed')) : resolve()));
      client.send({ url: `${server.url}/api/search?q=term+`, headers, requests });
    });
  const go = () => new Promise((resolve) => process.once('SIGUSR2', resolve));
  await send(WARMUP);
  // Every window starts from the same compacted heap: no GC begun in the warm-up is finished (and counted) in it.
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write('WARM\n');
  await go();
  await send(REQUESTS);
  process.stdout.write('DONE\n');
  await go();
  client.kill();
  process.exit(0);
}

/** Runs one variant's server under callgrind; its instructions per measured request (every thread's, the main thread's). */
async function measure(name: string): Promise<{ all: number; main: number }> {
  const out = join(tmpdir(), `websift-obs-${process.pid}-${Date.now()}.callgrind`);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--expose-gc',
      '--import',
      'tsx',
      self,
      '--server',
      name,
      '--warmup',
      String(WARMUP),
      '--requests',
      String(REQUESTS),
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line === 'WARM') execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
    if (line === 'DONE') execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
    if (line === 'WARM' || line === 'DONE') child.kill('SIGUSR2');
  }
  await exited;
  // One file per thread (out-01 is the main thread), each with a "totals:" line: its Ir while instrumentation was on.
  const dir = tmpdir();
  const files = readdirSync(dir).filter((f) => f.startsWith(`${basename(out)}-`));
  let all = 0;
  let main = 0;
  for (const file of files) {
    const path = join(dir, file);
    const total = Number(/^totals: (\d+)/m.exec(readFileSync(path, 'utf8'))?.[1] ?? 0);
    all += total;
    if (file.endsWith('-01')) main = total;
    if (!process.env.KEEP) rmSync(path, { force: true });
  }
  return { all: all / REQUESTS, main: main / REQUESTS };
}

async function parentMode() {
  const ROUNDS = Number(values.rounds ?? 3);
  const names = Object.keys(VARIANTS).filter((_n, i) => i === 0 || !values.only || values.only.split(',').map(Number).includes(i));
  const ir = Object.fromEntries(names.map((n) => [n, [] as number[]]));
  const mainIr = Object.fromEntries(names.map((n) => [n, [] as number[]]));
  for (let r = 0; r < ROUNDS; r++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      const { all, main } = await measure(name);
      ir[name]!.push(all);
      mainIr[name]!.push(main);
      console.error(`round ${r + 1} ${name}: ${Math.round(all)} instructions/request, main thread ${Math.round(main)}`);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const k = (x: number) => `${(x / 1000).toFixed(0)}k`;
  const off = median(ir.off!);
  const offMain = median(mainIr.off!);
  console.log(
    `Instructions per charged search over HTTP (server process, callgrind), ${ROUNDS} rounds, warm-up ${WARMUP}, ${REQUESTS} measured requests, Node ${process.version}`,
  );
  console.log('| observability | instructions/request, all threads | vs off (medians) | main thread | vs off |\n|---|---|---|---|---|');
  for (const name of names) {
    const xs = ir[name]!;
    const ms = mainIr[name]!;
    console.log(
      `| ${name} | ${k(median(xs))} (${k(Math.min(...xs))}–${k(Math.max(...xs))}) | ${(median(xs) / off).toFixed(3)}× | ${k(median(ms))} (${k(Math.min(...ms))}–${k(Math.max(...ms))}) | ${(median(ms) / offMain).toFixed(3)}× |`,
    );
  }
}
