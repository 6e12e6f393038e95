// A real engine (in-memory SQLite, a scripted source) behind createNodeHandler on a loopback node:http
// server with node:http's own defaults, as a host that mounts the handler would run it.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine } from '../../src/engine/create-engine.js';
import { createNodeHandler, type FetchHandlerOptions } from '../../src/http/index.js';
import { scriptedSource } from '../../src/testing/index.js';
import { RESULTS } from './harness.js';

const servers: Server[] = [];

/** Serves the handler on 127.0.0.1 (an organization `acme` with 100 credits and a key of it). */
export async function serveNodeApi(options: FetchHandlerOptions = {}) {
  const engine = createEngine({ sources: [scriptedSource('s', { cats: RESULTS })], rateLimit: false });
  await engine.admin.createOrganization('acme', { credits: 100 });
  const key = await engine.admin.createApiKey('acme');
  const server = createServer(createNodeHandler(engine, options));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { engine, key, port, base: `http://127.0.0.1:${port}` };
}

/** Closes `server` with the others at closeNodeServers. */
export function closeWithOthers(server: Server): void {
  servers.push(server);
}

/** Closes every server serveNodeApi started or closeWithOthers was given (for afterEach), their connections cut. */
export async function closeNodeServers(): Promise<void> {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
}
