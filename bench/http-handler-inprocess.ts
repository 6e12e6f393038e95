// The node handler's own CPU per charged search, in process: its listener driven with stand-in req/res
// (no sockets, no HTTP parsing: what every node:http listener pays alike is left out), against another
// compiled tree's handler (--baseline DIST, e.g. main's) and the floor listener of bench/lib/handler-servers.ts,
// in short interleaved batches (the ratios are taken between batches a fraction of a second apart).
// With --stub the engine answers at once from a fixed answer (ten results): the ratios are then the
// handler's own cost against the floor's, which the engine's CPU (most of a real request) otherwise dilutes.
// With --node-response the reply is a real node:http ServerResponse on a socket that discards what is written
// (the stand-in response otherwise): node:http's work on the reply the handler hands it (checking each header's
// name and value, building the head, the write) is then counted, as it is over a network.
// --tree DIST takes the handler from a compiled tree too (this tree compiled, say: `tsc -p tsconfig.build.json
// --outDir`), rather than from src through tsx, whose esbuild output names each closure made per call (`__name`).
//   npx tsx bench/http-handler-inprocess.ts [--rounds 30] [--requests 4000] [--stub] [--node-response] [--tree DIST] [--baseline DIST] [--only NAME]
// --only runs that one listener (for a profile: node --cpu-prof --import tsx bench/http-handler-inprocess.ts --only handler).

import { type IncomingMessage, type RequestListener, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_PER_PARTITION } from '../src/adapters/partitioned-lru-store.js';
import { createNodeHandler } from '../src/http/index.js';
import type { Engine } from '../src/types/engine.js';
import { floorListener } from './lib/handler-servers.js';
import { rotated, spread } from './lib/rounds.js';
import { BENCH_RESULTS, searchBenchEngine } from './lib/search-bench.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string' },
    requests: { type: 'string' },
    stub: { type: 'boolean' },
    'node-response': { type: 'boolean' },
    baseline: { type: 'string' },
    tree: { type: 'string' },
    only: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds ?? 30);
const REQUESTS = Number(values.requests ?? 4000);
/** Requests in flight at once, as the HTTP benches' 16 connections. */
const IN_FLIGHT = 16;

/** What the listeners call on a ServerResponse; `ended` is told the status. */
class StandInResponse {
  destroyed = false;
  writableEnded = false;
  status = 0;
  constructor(private readonly ended: (status: number) => void) {}
  writeHead(status: number) {
    this.status = status;
    return this;
  }
  write() {
    return true;
  }
  end() {
    this.writableEnded = true;
    this.ended(this.status);
    return this;
  }
  once() {}
}

const { engine: real, key } = await searchBenchEngine();
for (let i = 0; i < DEFAULT_MAX_PER_PARTITION; i++) await real.search({ q: `fill ${i}` }, { organization: 'bench' });
const engine: Engine = values.stub ? stubEngine(real) : real;

/** `createNodeHandler` of a compiled tree. */
const compiled = async (dist: string) =>
  ((await import(pathToFileURL(join(dist, 'http/index.js')).href)) as typeof import('../src/http/index.js')).createNodeHandler;
const listeners: Record<string, RequestListener> = {
  floor: floorListener(engine),
  handler: (values.tree ? await compiled(values.tree) : createNodeHandler)(engine),
};
if (values.baseline) listeners.baseline = (await compiled(values.baseline))(engine);

/**
 * A socket per stand-in connection: the handlers keep their per-connection state on it. With --node-response
 * it is a stream that takes the replies' bytes and drops them.
 */
const sockets = Array.from({ length: IN_FLIGHT }, () =>
  values['node-response']
    ? new Duplex({ decodeStrings: false, write: (_chunk, _encoding, done) => done(), writev: (_chunks, done) => done(), read() {} })
    : { once() {}, on() {}, destroySoon() {} },
);
const authorization = `Bearer ${key}`;
let series = 0;

/** Sends `requests` GET searches (a new query each) to `listener`, IN_FLIGHT at a time; resolves when all are answered. */
function run(listener: RequestListener, requests: number): Promise<void> {
  const prefix = `/api/search?q=b${series++}+`;
  let sent = 0;
  let answered = 0;
  return new Promise((resolve, reject) => {
    const next = (socket: object) => {
      const req = {
        method: 'GET',
        url: `${prefix}${sent++}`,
        headers: { host: '127.0.0.1:8080', authorization, connection: 'keep-alive' },
        httpVersionMajor: 1,
        httpVersionMinor: 1,
        socket,
      } as unknown as IncomingMessage;
      const ended = (status: number) => {
        if (status !== 200) reject(new Error(`answered ${status}`));
        else if (++answered === requests) resolve();
        else if (sent < requests) next(socket);
      };
      listener(
        req,
        values['node-response'] ? nodeResponse(req, socket as Duplex, ended) : (new StandInResponse(ended) as unknown as ServerResponse),
      );
    };
    for (const socket of sockets) if (sent < requests) next(socket);
  });
}

/** A node:http reply on `socket`, as a server makes it for a kept-alive request; `ended` is told its status once written. */
function nodeResponse(req: IncomingMessage, socket: Duplex, ended: (status: number) => void): ServerResponse {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = true;
  res.assignSocket(socket as unknown as import('node:net').Socket);
  res.once('finish', () => {
    res.detachSocket(socket as unknown as import('node:net').Socket);
    ended(res.statusCode);
  });
  return res;
}

const names = values.only ? [values.only] : Object.keys(listeners);
for (const name of names) await run(listeners[name]!, REQUESTS); // warm-up
const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotated(names, round)) {
    const before = process.cpuUsage();
    await run(listeners[name]!, REQUESTS);
    const used = process.cpuUsage(before);
    cpu[name]!.push((used.user + used.system) / REQUESTS);
  }
}
await real.close();

console.log(
  `${ROUNDS} rounds of ${REQUESTS} ${values.stub ? 'searches of a stub engine' : 'charged searches'} per listener, ${IN_FLIGHT} in flight, ${values['node-response'] ? 'node:http replies' : 'stand-in replies'}, Node ${process.version}`,
);
for (const name of names) console.log(`${name.padEnd(8)} CPU µs/request ${spread(cpu[name]!, 2)}`);
const ratio = (a: string, b: string) => cpu[a]!.map((x, i) => x / cpu[b]![i]!);
const pairs: [string, string][] = values.only
  ? []
  : [
      ['handler', 'floor'],
      ...(values.baseline
        ? ([
            ['handler', 'baseline'],
            ['baseline', 'floor'],
          ] as [string, string][])
        : []),
    ];
console.log(`per-round ratios, median (min–max): ${pairs.map(([a, b]) => `${a}/${b} ${spread(ratio(a, b), 3)}`).join(', ')}`);

/** The engine's calls answered at once (authenticate from the real engine's key, search a fixed answer). */
function stubEngine(engine: Engine): Engine {
  const identity = Promise.resolve({ organization: 'bench' });
  return {
    ...engine,
    authenticate: () => identity,
    search: async (params) =>
      ({
        query: String(params.q),
        results: BENCH_RESULTS.map((r) => ({ ...r })),
        metadata: { status: 'success', credits_used: 1, response_time: 1, timestamp: new Date(0).toISOString() },
      }) as unknown as Awaited<ReturnType<Engine['search']>>,
  };
}
