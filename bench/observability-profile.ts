// Where a variant's extra CPU per request goes (issue 30, sixth round): two variant servers of
// bench/observability.ts (`--variant-server`), loaded alike by one load client in interleaved rounds, each
// CPU-profiled (inspector, 100 µs sampling) around exactly its measured requests; then self time per
// function per request, B minus A, largest first. Profiles are sampled: read the large rows.
//   npx tsx bench/observability-profile.ts [--a 'off (no log, no metrics, no tracing)'] [--b 'empty subscribers on every channel']
//     [--requests 2000] [--rounds 6] [--top 30] [--forced-gc] [--upstream searxng|scripted|http://…]
// On the code as it ships: node bench/compiled.mjs observability-profile [the same options].
// --forced-gc: one full GC forced a round in the variant servers (bench/observability.ts's option; by default V8's own only).
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    requests: { type: 'string' },
    rounds: { type: 'string' },
    top: { type: 'string' },
    'forced-gc': { type: 'boolean' },
    upstream: { type: 'string' },
  },
});
const A = values.a ?? 'off (no log, no metrics, no tracing)';
const B = values.b ?? 'empty subscribers on every channel';
const REQUESTS = Number(values.requests ?? 2000);
const ROUNDS = Number(values.rounds ?? 6);
const TOP = Number(values.top ?? 30);
// Its sibling as this file runs: TypeScript under tsx, or compiled (bench/compiled.mjs).
const bench = fileURLToPath(new URL(import.meta.url.endsWith('.js') ? './observability.js' : './observability.ts', import.meta.url));

function child(args: string[], flags: string[]) {
  const c: ChildProcess = fork(bench, args, { execArgv: [...process.execArgv, ...flags] });
  const next = <T>() => new Promise<T>((resolve) => c.once('message', (m) => resolve(m as T)));
  const ask = <T>(m: unknown) => {
    const answer = next<T>();
    c.send(m as never);
    return answer;
  };
  return { c, next, ask };
}

const client = child(['--client'], []);
// --upstream (bench/observability.ts's option, its default searxng): the servers search a SearXNG instance in a child process.
const upstream =
  (values.upstream ?? 'searxng') === 'searxng' ? (await child(['--upstream-child'], []).next<{ url: string }>()).url : values.upstream!;
const serverArgs = [...(values['forced-gc'] ? ['--forced-gc'] : []), '--upstream', upstream];
const servers = Object.fromEntries(
  await Promise.all(
    [A, B].map(async (name) => {
      const s = child(['--variant-server', name, ...serverArgs], ['--expose-gc']);
      return [name, { s, ready: await s.next<{ url: string; headers: Record<string, string> }>() }] as const;
    }),
  ),
);
const send = async (name: string, requests: number) => {
  const { url, headers } = servers[name]!.ready;
  const { failed } = await client.ask<{ failed: number }>({ url, headers, connections: 16, requests });
  if (failed) throw new Error(`${failed} failed`);
};
for (const name of [A, B]) await send(name, 3000);
const cpu: Record<string, number> = { [A]: 0, [B]: 0 };
const self: Record<string, Record<string, number>> = { [A]: {}, [B]: {} };
for (let r = 0; r < ROUNDS; r++)
  for (const name of r % 2 ? [B, A] : [A, B]) {
    const { s } = servers[name]!;
    await s.ask('profile');
    await s.ask('begin');
    await send(name, REQUESTS);
    cpu[name]! += (await s.ask<{ us: number }>('end')).us;
    const { us } = await s.ask<{ us: Record<string, number> }>('profiled');
    for (const [site, t] of Object.entries(us)) self[name]![site] = (self[name]![site] ?? 0) + t;
  }
client.c.disconnect();
for (const name of [A, B]) servers[name]!.s.c.disconnect();

const n = REQUESTS * ROUNDS;
const sum = (x: Record<string, number>) => Object.values(x).reduce((s, v) => s + v, 0);
const a = self[A]!;
const b = self[B]!;
console.log(`A: ${A}; B: ${B}; ${ROUNDS} rounds × ${REQUESTS} requests, Node ${process.version}`);
console.log(`CPU µs/request (process.cpuUsage): A ${(cpu[A]! / n).toFixed(1)}, B ${(cpu[B]! / n).toFixed(1)}`);
console.log(`profiled µs/request (idle left out): A ${(sum(a) / n).toFixed(1)}, B ${(sum(b) / n).toFixed(1)}`);
const sites = new Set([...Object.keys(a), ...Object.keys(b)]);
const diffs = [...sites].map((k) => [k, ((b[k] ?? 0) - (a[k] ?? 0)) / n, (a[k] ?? 0) / n] as const);
for (const [k, d, base] of diffs.sort((x, y) => Math.abs(y[1]) - Math.abs(x[1])).slice(0, TOP))
  console.log(`${d > 0 ? '+' : ''}${d.toFixed(2)} µs (A ${base.toFixed(2)})  ${k}`);
process.exit(0);
