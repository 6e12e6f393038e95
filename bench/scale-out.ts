// Aggregate charged searches/s with 1, 2 and 4 `websift serve` instances on one PostgreSQL and one Redis
// (test/scale/cluster.ts: the real CLI, fake SearXNG over loopback), and where the CPU went meanwhile:
// the instances, the PostgreSQL backends, redis-server, and this process (load client + fake SearXNG).
// Every search is a new query (charged 1: reserve + settle in PostgreSQL, rate limit, repeat window
// and key cache through Redis).
// Rounds run every instance count, the order rotating; each figure is the median (min–max) over rounds, and
// searches/s against the first count's in the same round.
//   npx tsx bench/scale-out.ts [--seconds 8] [--concurrency 32] [--instances 1,2,4] [--rounds 3]
// Needs PostgreSQL (WEBSIFT_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test) and Redis
// (WEBSIFT_TEST_REDIS_URL, default redis://127.0.0.1:6379; its keys are under a prefix of its own, deleted at the end).

import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createEngine } from '../src/engine/create-engine.js';
import { deleteKeys } from '../test/redis/redis-kit.js';
import { Cluster } from '../test/scale/cluster.js';
import { POSTGRES_URL, REDIS_URL, uniqueName } from '../test/support/services.js';
import { rotated, spread } from './lib/rounds.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string' }, concurrency: { type: 'string' }, instances: { type: 'string' }, rounds: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 3);
const SECONDS = Number(values.seconds ?? 8);
const CONCURRENCY = Number(values.concurrency ?? 32);
const COUNTS = (values.instances ?? '1,2,4').split(',').map(Number);
const TICK = 100; // USER_HZ: /proc stat times are in 1/100 s

/** CPU seconds used so far by processes whose command line matches. */
function cpuSeconds(match: (cmd: string, pid: number) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'latin1').replace(/\0/g, ' ');
      if (!match(cmd, Number(entry))) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime + stime
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / TICK;
}

const groups = {
  instances: (cmd: string) => cmd.includes('src/cli/main.ts serve'),
  postgres: (cmd: string) => cmd.startsWith('postgres'),
  redis: (cmd: string) => cmd.startsWith('redis-server'),
  client: (_: string, pid: number) => pid === process.pid,
};
const sample = () =>
  Object.fromEntries(Object.entries(groups).map(([name, match]) => [name, cpuSeconds(match)])) as Record<keyof typeof groups, number>;

const schema = uniqueName('ws_bench');
const redisPrefix = `${uniqueName('ws_bench')}:`;
const postgres = { schema };
const admin = createEngine({ database: POSTGRES_URL, redis: REDIS_URL, redisPrefix, postgres, rateLimit: false });
await admin.admin.createOrganization('bench', { credits: 1e12 });
const key = await admin.admin.createApiKey('bench');

console.log(
  `charged searches through HTTP, ${CONCURRENCY} in flight, ${SECONDS} s per run, ${ROUNDS} rounds (order rotating); 2 cores shared by everything`,
);
type Run = { rps: number; p50: number; p99: number; cpu: Record<keyof typeof groups, number> };
const runs = new Map<number, Run[]>(COUNTS.map((n) => [n, []]));
let serial = 0;
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of rotated(COUNTS, round)) {
      const cluster = await Cluster.start({
        instances: n,
        database: POSTGRES_URL,
        redis: REDIS_URL,
        engine: { postgres, redisPrefix, rateLimit: false },
      });
      try {
        // Warm-up: connections, prepared functions, JIT.
        await Promise.all(Array.from({ length: CONCURRENCY }, () => cluster.call('/api/search', key, { q: `warm ${serial++}` })));
        const before = sample();
        const latencies: number[] = [];
        const end = performance.now() + SECONDS * 1000;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (performance.now() < end) {
              const t = performance.now();
              const reply = await cluster.call('/api/search', key, { q: `bench ${serial++}` });
              if (reply.status !== 200 || reply.body.metadata.credits_used !== 1)
                throw new Error(`unexpected ${reply.status}: ${JSON.stringify(reply.body)}`);
              latencies.push(performance.now() - t);
            }
          }),
        );
        const after = sample();
        latencies.sort((a, b) => a - b);
        const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
        const cpu = Object.fromEntries(
          (Object.keys(groups) as (keyof typeof groups)[]).map((g) => [g, ((after[g] - before[g]) / latencies.length) * 1000]),
        ) as Run['cpu'];
        runs.get(n)!.push({ rps: latencies.length / SECONDS, p50: q(0.5), p99: q(0.99), cpu });
      } finally {
        await cluster.close();
      }
    }
  }
  const first = runs.get(COUNTS[0]!)!;
  console.log(
    `instances | searches/s | × ${COUNTS[0]} instance(s), per round | p50 ms | p99 ms | CPU s per 1,000 searches: instances / postgres / redis / client`,
  );
  for (const n of COUNTS) {
    const rs = runs.get(n)!;
    const cpu = (g: keyof typeof groups) =>
      spread(
        rs.map((r) => r.cpu[g]),
        2,
      );
    console.log(
      `${n} | ${spread(
        rs.map((r) => r.rps),
        0,
      )} | ${spread(
        rs.map((r, i) => r.rps / first[i]!.rps),
        2,
      )} | ${spread(rs.map((r) => r.p50))} | ${spread(rs.map((r) => r.p99))} | ${cpu('instances')} / ${cpu('postgres')} / ${cpu('redis')} / ${cpu('client')}`,
    );
  }
} finally {
  await admin.close();
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
  await deleteKeys(redisPrefix);
}
