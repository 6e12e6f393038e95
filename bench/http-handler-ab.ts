// The node handler's server CPU per request against the matched Fastify route and a floor, in short
// alternating batches: on a loaded machine a 2 s run per variant (bench/http-throughput.ts) sees the
// load change between variants, and its per-round ratios spread 0.3–2.5×. Here a persistent client
// child (over IPC) sends a batch of requests to one server, then the next, rotating; each round's
// ratios are taken between batches a fraction of a second apart.
//   npx tsx bench/http-handler-ab.ts [--rounds 60] [--requests 800] [--repeat] [--baseline dist]
// Servers (floor, handler, baseline with --baseline DIST, matched Fastify): bench/lib/handler-servers.ts.
// Instruction counts of the same servers, which the load does not move: bench/http-handler-instructions.ts.
// Distinct queries (charged searches) unless --repeat (free repeats).

import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startHandlerServers } from './lib/handler-servers.js';
import { sendCounted } from './lib/load-client.js';

const { values } = parseArgs({
  options: {
    client: { type: 'boolean' },
    rounds: { type: 'string' },
    requests: { type: 'string' },
    repeat: { type: 'boolean' },
    baseline: { type: 'string' },
  },
});

interface Batch {
  url: string;
  headers: Record<string, string>;
  requests: number;
}

if (values.client) {
  // The client child: one batch per message, 16 kept-alive connections; answers how many failed.
  process.on('message', async (batch: Batch) => {
    process.send?.({ failed: await sendCounted(batch.url, batch.headers, batch.requests, 16) });
  });
} else {
  await main();
}

async function main(): Promise<void> {
  const ROUNDS = Number(values.rounds ?? 60);
  const REQUESTS = Number(values.requests ?? 800);
  const servers = await startHandlerServers(values.baseline);
  const { ports } = servers;

  const child = fork(fileURLToPath(import.meta.url), ['--client'], { execArgv: process.execArgv });
  let series = 0;
  /** This process's CPU µs per request over one batch to `name`. */
  const batch = (name: string) =>
    new Promise<number>((resolve, reject) => {
      const before = process.cpuUsage();
      child.once('message', ({ failed }: { failed: number }) => {
        const cpu = process.cpuUsage(before);
        if (failed > 0) reject(new Error(`${failed} of ${REQUESTS} requests to ${name} failed`));
        else resolve((cpu.user + cpu.system) / REQUESTS);
      });
      // sendCounted appends a running id: a new query each request, unless --repeat (an ignored parameter then).
      const query = values.repeat ? 'same+query&n=' : `b${series++}+`;
      const job: Batch = {
        url: `http://127.0.0.1:${ports[name]}/api/search?q=${query}`,
        headers: { authorization: servers.authorization },
        requests: REQUESTS,
      };
      child.send(job);
    });

  const names = Object.keys(ports);
  const load = [loadavg()[0]!];
  for (const name of names) await batch(name); // warm-up
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]!;
      cpu[name]!.push(await batch(name));
    }
  }
  load.push(loadavg()[0]!);
  child.kill();
  await servers.close();

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const spread = (xs: number[], digits: number) =>
    `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
  const ratio = (a: string, b: string) => cpu[a]!.map((x, i) => x / cpu[b]![i]!);
  console.log(
    `${ROUNDS} rounds of ${REQUESTS} ${values.repeat ? 'free repeats' : 'charged searches (distinct queries)'} per server, 16 connections, Node ${process.version}, load average ${load[0]!.toFixed(1)} → ${load[1]!.toFixed(1)}`,
  );
  for (const name of names) console.log(`${name.padEnd(8)} server CPU µs/request ${spread(cpu[name]!, 1)}`);
  const pairs: [string, string][] = [
    ['handler', 'matched'],
    ['floor', 'matched'],
    ['handler', 'floor'],
    ...(values.baseline
      ? ([
          ['baseline', 'matched'],
          ['handler', 'baseline'],
        ] as [string, string][])
      : []),
  ];
  console.log(`per-round CPU ratios, median (min–max): ${pairs.map(([a, b]) => `${a}/${b} ${spread(ratio(a, b), 3)}`).join(', ')}`);
}
