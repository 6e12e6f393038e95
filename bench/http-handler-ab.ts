// The node handler's server CPU per request against the matched Fastify route and a floor, in short
// alternating batches: on a loaded machine a 2 s run per variant (bench/http-throughput.ts) sees the
// load change between variants, and its per-round ratios spread 0.3–2.5×. Here a persistent client
// child (over IPC) sends a batch of requests to one server, then the next, rotating; each round's
// ratios are taken between batches a fraction of a second apart.
//   npx tsx bench/http-handler-ab.ts [--rounds 60] [--requests 800] [--repeat] [--baseline dist]
// Servers, all over one engine in this process (repeat partition filled first, as in http-throughput.ts):
//   floor    a bare node:http listener doing only what any route must for this answer: the connection's
//            abort signal, the Bearer key, engine.search, JSON.stringify, the same four headers;
//   handler  createNodeHandler (this tree);
//   baseline createNodeHandler of another compiled tree (--baseline DIST, e.g. main's), when given;
//   matched  the Fastify route of http-throughput.ts that passes the same signal and sends the same headers.
// Distinct queries (charged searches) unless --repeat (free repeats).

import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
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
  const { default: Fastify } = await import('fastify');
  const { DEFAULT_MAX_PER_PARTITION } = await import('../src/adapters/partitioned-lru-store.js');
  const { createEngine } = await import('../src/engine/create-engine.js');
  const { createNodeHandler } = await import('../src/http/index.js');
  const { scriptedSource } = await import('../src/testing/index.js');
  const ROUNDS = Number(values.rounds ?? 60);
  const REQUESTS = Number(values.requests ?? 800);

  const RESULTS = Array.from({ length: 10 }, (_, i) => ({
    title: `Result ${i}`,
    url: `https://bench.test/${i}`,
    snippet: `Snippet number ${i} of the benchmark`,
  }));
  const engine = createEngine({ sources: [scriptedSource('bench', () => ({ results: RESULTS }))], rateLimit: false });
  await engine.admin.createOrganization('bench', { credits: 1_000_000_000 });
  const key = await engine.admin.createApiKey('bench');
  for (let i = 0; i < DEFAULT_MAX_PER_PARTITION; i++) await engine.search({ q: `fill ${i}` }, { organization: 'bench' });

  /** One abort signal per connection, aborted when it closes with a request unanswered (as the handler's). */
  const connectionSignals = new WeakMap<object, { abort: AbortController; unanswered: number }>();
  const connectionOf = (socket: object & { once(event: 'close', f: () => void): unknown }) => {
    let connection = connectionSignals.get(socket);
    if (!connection) {
      const fresh = { abort: new AbortController(), unanswered: 0 };
      socket.once('close', () => fresh.unanswered > 0 && fresh.abort.abort());
      connectionSignals.set(socket, fresh);
      connection = fresh;
    }
    return connection;
  };

  const floor: RequestListener = (req, res) => {
    const connection = connectionOf(req.socket);
    connection.unanswered++;
    const target = req.url ?? '/';
    const q = new URLSearchParams(target.slice(target.indexOf('?') + 1)).get('q') ?? '';
    const requestId = randomUUID();
    const header = req.headers.authorization ?? '';
    engine
      .authenticate(header.slice(7))
      .then((identity) => engine.search({ q }, { organization: identity?.organization ?? '', signal: connection.abort.signal }))
      .then(
        (answer) => {
          connection.unanswered--;
          const body = JSON.stringify(answer);
          res
            .writeHead(200, {
              'content-type': 'application/json; charset=utf-8',
              'cache-control': 'no-store',
              'x-request-id': requestId,
              'content-length': String(Buffer.byteLength(body)),
            })
            .end(body);
        },
        () => res.writeHead(500).end(),
      );
  };

  const matched = Fastify();
  matched.get('/api/search', async (request, reply) => {
    const connection = connectionOf(request.raw.socket);
    connection.unanswered++;
    try {
      reply.header('cache-control', 'no-store').header('x-request-id', randomUUID());
      const header = request.headers.authorization;
      const identity = header?.startsWith('Bearer ') ? await engine.authenticate(header.slice(7)) : null;
      if (!identity) return reply.code(401).send({ error: 'unauthorized' });
      return await engine.search(
        { q: (request.query as { q: string }).q },
        { organization: identity.organization, signal: connection.abort.signal },
      );
    } finally {
      connection.unanswered--;
    }
  });
  await matched.listen({ port: 0, host: '127.0.0.1' });

  const listen = async (listener: RequestListener) => {
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  };
  const servers = { floor: await listen(floor), handler: await listen(createNodeHandler(engine)) };
  const baseline = values.baseline
    ? await listen(
        (
          (await import(pathToFileURL(join(values.baseline, 'http/index.js')).href)) as typeof import('../src/http/index.js')
        ).createNodeHandler(engine),
      )
    : undefined;
  const ports: Record<string, number> = {
    floor: (servers.floor.address() as AddressInfo).port,
    handler: (servers.handler.address() as AddressInfo).port,
    ...(baseline ? { baseline: (baseline.address() as AddressInfo).port } : {}),
    matched: (matched.server.address() as AddressInfo).port,
  };

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
        headers: { authorization: `Bearer ${key}` },
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
  for (const server of [servers.floor, servers.handler, ...(baseline ? [baseline] : [])]) server.close();
  await matched.close();
  await engine.close();

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
    ...(baseline
      ? ([
          ['baseline', 'matched'],
          ['handler', 'baseline'],
        ] as [string, string][])
      : []),
  ];
  console.log(`per-round CPU ratios, median (min–max): ${pairs.map(([a, b]) => `${a}/${b} ${spread(ratio(a, b), 3)}`).join(', ')}`);
}
