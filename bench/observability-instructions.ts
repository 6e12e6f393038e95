// Observability's cost in instructions (issue 30), which a loaded 2-core machine does not blur: each
// variant's server runs in its own process under `valgrind --tool=callgrind` (one configuration for the
// whole process, as `websift serve` runs: no switching), warmed up, then instrumentation is switched on
// (callgrind_control) around exactly the measured requests; the load client is a child valgrind does not
// follow. Instructions of every thread of the server process are counted (V8's compiler and GC threads
// too). Prints instructions per request, median (min–max) over the rounds, and the ratio to "off"'s
// median; variants run interleaved, one process each per round.
//   npx tsx bench/observability-instructions.ts [--rounds 3] [--warmup 3000] [--requests 2000]

import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  const { pino } = await import('pino');
  const { bufferedLines } = await import('../src/cli/buffered-lines.js');
  const { createRequestLog } = await import('../src/cli/request-log.js');
  const { startServer } = await import('../src/cli/server.js');
  const { createEngine } = await import('../src/engine/create-engine.js');
  const { websiftMetrics } = await import('../src/metrics/index.js');
  const { websiftTracing } = await import('../src/otel/index.js');
  const { scriptedSource } = await import('../src/testing/index.js');
  const RESULTS = Array.from({ length: 10 }, (_, i) => ({
    title: `Result ${i}`,
    url: `https://bench.test/${i}`,
    snippet: `Snippet number ${i} of the benchmark`,
  }));
  const engine = createEngine({ sources: [scriptedSource('bench', () => ({ results: RESULTS }))], rateLimit: false });
  await engine.admin.createOrganization('bench', { credits: 1_000_000_000 });
  const headers = { authorization: `Bearer ${await engine.admin.createApiKey('bench')}` };
  // As serve: the log's lines buffered and written together (to /dev/null here).
  const requestLog = parts.includes('log')
    ? createRequestLog({
        format: 'json',
        stream: bufferedLines({ destination: pino.destination({ dest: '/dev/null', sync: true }) }),
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
  process.stdout.write('WARM\n');
  await go();
  await send(REQUESTS);
  process.stdout.write('DONE\n');
  await go();
  client.kill();
  process.exit(0);
}

/** Runs one variant's server under callgrind; its instructions per measured request. */
async function measure(name: string): Promise<number> {
  const out = join(tmpdir(), `websift-obs-${process.pid}-${Date.now()}.callgrind`);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${out}`,
      process.execPath,
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
  // The "totals:" line: every thread's Ir while instrumentation was on.
  const text = readFileSync(out, 'utf8');
  if (!process.env.KEEP) rmSync(out, { force: true });
  const total = Number(/^totals: (\d+)/m.exec(text)?.[1]);
  return total / REQUESTS;
}

async function parentMode() {
  const ROUNDS = Number(values.rounds ?? 3);
  const names = Object.keys(VARIANTS).filter((_n, i) => i === 0 || !values.only || values.only.split(',').map(Number).includes(i));
  const ir = Object.fromEntries(names.map((n) => [n, [] as number[]]));
  for (let r = 0; r < ROUNDS; r++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      ir[name]!.push(await measure(name));
      console.error(`round ${r + 1} ${name}: ${Math.round(ir[name]!.at(-1)!)} instructions/request`);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const k = (x: number) => `${(x / 1000).toFixed(0)}k`;
  const off = median(ir.off!);
  console.log(
    `Instructions per charged search over HTTP (server process, callgrind), ${ROUNDS} rounds, warm-up ${WARMUP}, ${REQUESTS} measured requests, Node ${process.version}`,
  );
  console.log('| observability | instructions/request | vs off (medians) |\n|---|---|---|');
  for (const name of names) {
    const xs = ir[name]!;
    console.log(`| ${name} | ${k(median(xs))} (${k(Math.min(...xs))}–${k(Math.max(...xs))}) | ${(median(xs) / off).toFixed(3)}× |`);
  }
}
