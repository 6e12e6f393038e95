// The servers the handler benches compare (bench/http-handler-ab.ts, bench/http-handler-instructions.ts),
// all over one engine whose repeat partition is filled first (as in http-throughput.ts):
//   floor    a bare node:http listener doing only what any route must for this answer: the connection's
//            abort signal, the Bearer key, engine.search, JSON.stringify, the same four headers (floorListener,
//            which bench/http-handler-inprocess.ts also drives);
//   handler  createNodeHandler (this tree);
//   baseline createNodeHandler of another compiled tree (a dist directory, e.g. main's), when given;
//   matched  a Fastify route calling engine.search that passes the same signal and sends the same headers.

import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../../src/types/engine.js';

export interface HandlerServers {
  /** Port of each server by name, in the order the benches rotate through them. */
  ports: Record<string, number>;
  /** The Authorization header's value. */
  authorization: string;
  close(): Promise<void>;
}

/** One abort signal per connection, aborted when it closes with a request unanswered (as the handler's). */
const connectionSignals = new WeakMap<object, { abort: AbortController; unanswered: number }>();
function connectionOf(socket: object & { once(event: 'close', f: () => void): unknown }) {
  let connection = connectionSignals.get(socket);
  if (!connection) {
    const fresh = { abort: new AbortController(), unanswered: 0 };
    socket.once('close', () => fresh.unanswered > 0 && fresh.abort.abort());
    connectionSignals.set(socket, fresh);
    connection = fresh;
  }
  return connection;
}

/**
 * The Fastify route doing what the node handler does besides engine.search: a signal that aborts when the
 * client goes away (one per connection), and the handler's headers (a new X-Request-Id, Cache-Control:
 * no-store): the same engine call and the same answer bytes.
 */
export function matchedSearchRoute(engine: Engine) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
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
  };
}

/** The floor: only what any route must do for this answer (see above), as a bare node:http listener. */
export function floorListener(engine: Engine): RequestListener {
  return (req, res) => {
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
}

export async function startHandlerServers(baselineDist?: string): Promise<HandlerServers> {
  const { default: Fastify } = await import('fastify');
  const { DEFAULT_MAX_PER_PARTITION } = await import('../../src/adapters/partitioned-lru-store.js');
  const { createNodeHandler } = await import('../../src/http/index.js');
  const { searchBenchEngine } = await import('./search-bench.js');

  const { engine, key } = await searchBenchEngine();
  for (let i = 0; i < DEFAULT_MAX_PER_PARTITION; i++) await engine.search({ q: `fill ${i}` }, { organization: 'bench' });

  const floor = floorListener(engine);

  const matched = Fastify();
  matched.get('/api/search', matchedSearchRoute(engine));
  await matched.listen({ port: 0, host: '127.0.0.1' });

  const listen = async (listener: RequestListener) => {
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  };
  const nodeServers: Record<string, Server> = { floor: await listen(floor), handler: await listen(createNodeHandler(engine)) };
  if (baselineDist) {
    const baseline = (await import(pathToFileURL(join(baselineDist, 'http/index.js')).href)) as typeof import('../../src/http/index.js');
    nodeServers.baseline = await listen(baseline.createNodeHandler(engine));
  }
  const ports: Record<string, number> = {};
  for (const [name, server] of Object.entries(nodeServers)) ports[name] = (server.address() as AddressInfo).port;
  ports.matched = (matched.server.address() as AddressInfo).port;
  return {
    ports,
    authorization: `Bearer ${key}`,
    async close() {
      for (const server of Object.values(nodeServers)) server.close();
      await matched.close();
      await engine.close();
    },
  };
}
