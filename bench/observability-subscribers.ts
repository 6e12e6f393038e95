// What websift's subscribers cost per charged search, without sockets: the API core (createApiHandler)
// answering GET /api/search in-process, with the access log opened and written around each request as
// `websift serve` does (a stand-in request and response), websift/metrics and websift/otel (no-op tracer).
// One variant per process (as serve runs); prints µs per request over the measured requests.
//   npx tsx bench/observability-subscribers.ts --variant off|log|metrics|otel|all [--warmup 20000] [--requests 50000]
// Where the time goes: run it under `node --cpu-prof --cpu-prof-dir DIR --import tsx` and read the profile's
// self time per function with `npx tsx bench/observability-subscribers.ts --profile DIR/<file>.cpuprofile`.
// Bytes: `node --max-semi-space-size=256 --import tsx bench/observability-subscribers.ts --variant V --bytes` (heap
// growth over 1,000-request windows with no scavenge: exact; windows a GC crossed read negative), or `--sites`
// (by allocating function, sampled; under `node --no-opt` nothing is inlined, so each site is its own function's),
// `--sites --stacks-of FUNCTION` with the stacks that reach that function's allocations.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    variant: { type: 'string' },
    warmup: { type: 'string' },
    requests: { type: 'string' },
    profile: { type: 'string' },
    marks: { type: 'boolean' }, // WARM/DONE on stdout around the measured requests, each waiting for SIGUSR2
    bytes: { type: 'boolean' }, // bytes allocated per request instead of CPU (run with a young generation no window fills)
    sites: { type: 'boolean' }, // allocation sites instead of CPU: JSON of bytes per request by function (sampled every 64 bytes)
    'stacks-of': { type: 'string' }, // with --sites: the call stacks (on stderr) of what that function allocates
  },
});

if (values.profile) {
  // Self time per function (µs in all), the top 40, and by part of the code.
  type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number };
  const p = JSON.parse(readFileSync(values.profile, 'utf8')) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
    endTime: number;
  };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]!)!;
    const f = n.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 40)))
    console.log(`${((100 * v) / total).toFixed(2)}%  ${k}`);
  process.exit(0);
}

const { trace } = await import('@opentelemetry/api');
const { createRequestLog } = await import('../src/cli/request-log.js');
const { searchBenchEngine } = await import('./lib/search-bench.js');
const { createApiHandler } = await import('../src/http/api-handler.js');
const { websiftMetrics } = await import('../src/metrics/index.js');
const { websiftTracing } = await import('../src/otel/index.js');

const variant = values.variant ?? 'off';
const WARMUP = Number(values.warmup ?? 20000);
const REQUESTS = Number(values.requests ?? 50000);
const { engine, key } = await searchBenchEngine();
const authorization = `Bearer ${key}`;
const on = (part: string) => variant === part || variant === 'all';
let lines = 0;
const requestLog = on('log')
  ? createRequestLog({ format: 'json', stream: { write: (l: string) => (lines += l.length) }, say: () => {} })
  : undefined;
if (on('metrics')) websiftMetrics({ engine, processMetrics: false });
if (on('otel')) websiftTracing({ tracerProvider: trace.getTracerProvider() });
const handle = createApiHandler(engine, { health: true });

let id = 0;
async function one(): Promise<void> {
  const target = `/api/search?q=term+${id++}`;
  const headers: Record<string, string> = { host: '127.0.0.1', authorization };
  const request = {
    method: 'GET',
    target,
    url: `http://127.0.0.1${target}`,
    headers: { get: (name: string) => headers[name] ?? null },
    body: null,
    signal: undefined,
  };
  const req = { method: 'GET', url: target, headers };
  const res = { headersSent: false, statusCode: 200, header: undefined as string | undefined, getHeader: () => res.header };
  let reply!: Promise<{ status: number; headers: Record<string, string> }>;
  const next = () => {
    reply = handle(request as never) as never;
  };
  const entry = requestLog ? requestLog.open(req as never, res as never, next) : (next(), undefined);
  const answer = await reply;
  if (answer.status !== 200) throw new Error(`status ${answer.status}`);
  res.headersSent = true;
  res.header = answer.headers['x-request-id'];
  if (entry) requestLog!.done(entry);
}
/** 16 requests in flight, as the HTTP benches' client. */
async function run(n: number): Promise<void> {
  let left = n;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left-- > 0) await one();
    }),
  );
}
await run(WARMUP);
if (values.bytes) {
  // Heap growth over windows too short for a scavenge (node --max-semi-space-size=256): exact, not sampled.
  const windows: number[] = [];
  for (let i = 0; i < 9; i++) {
    const before = process.memoryUsage().heapUsed;
    await run(1000);
    windows.push((process.memoryUsage().heapUsed - before) / 1000);
  }
  windows.sort((a, b) => a - b);
  console.log(JSON.stringify({ variant, bytesPerRequest: windows.map(Math.round) }));
  await engine.close();
  process.exit(0);
}
if (values.sites) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 64,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await run(REQUESTS);
  type Node = {
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    selfSize: number;
    children: Node[];
  };
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
  const bytes: Record<string, number> = {};
  const walk = (node: Node) => {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${lineNumber + 1}:${columnNumber + 1}`;
    bytes[site] = (bytes[site] ?? 0) + node.selfSize / REQUESTS;
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  if (values['stacks-of']) {
    const stacks: Record<string, number> = {};
    const down = (node: Node, path: string[]) => {
      const here = [
        ...path,
        `${node.callFrame.functionName || '(anon)'}:${node.callFrame.url.replace(/^.*\//, '')}:${node.callFrame.columnNumber + 1}`,
      ];
      if (node.callFrame.functionName === values['stacks-of'] && node.selfSize > 0) {
        const k = here.slice(-8).join(' < ');
        stacks[k] = (stacks[k] ?? 0) + node.selfSize / REQUESTS;
      }
      for (const child of node.children) down(child, here);
    };
    down(profile.head, []);
    for (const [k, v] of Object.entries(stacks)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12))
      console.error(v.toFixed(0), k);
  }
  console.log(JSON.stringify({ variant, bytes }));
  await engine.close();
  process.exit(0);
}
const go = () => new Promise((resolve) => process.once('SIGUSR2', resolve));
if (values.marks) {
  process.stdout.write('WARM\n');
  await go();
}
const cpu = process.cpuUsage();
const t = performance.now();
await run(REQUESTS);
const used = process.cpuUsage(cpu);
if (values.marks) {
  process.stdout.write('DONE\n');
  await go();
}
console.log(
  JSON.stringify({
    variant,
    cpuUsPerRequest: (used.user + used.system) / REQUESTS,
    wallUsPerRequest: ((performance.now() - t) * 1000) / REQUESTS,
  }),
);
await engine.close();
