// CPU cost of the MCP layer per tool call, beside a direct engine call, in one process: the same free-repeat
// search (`web_search` {query: 'cats'} ≙ engine.search({q: 'cats'})) through
//   direct       engine.search
//   stdio        serveMcpStdio on in-process streams, the v1 SDK client over newline-delimited JSON-RPC
//   http-2025    createMcpFetchHandler on a loopback node:http server, the v1 client (2025 revisions,
//                the SDK's stateless fallback)
//   http-2026    the same server, the v2 client pinned to 2026-07-28 (the per-request path)
//   sdk-bare-*   the SDK's own createMcpHandler with one trivial tool (no engine, no websift layer) on
//                the same kind of server and client: what the SDK's HTTP serving costs by itself
// CPU = user + system of this process over a round of calls, per call: it includes the client's side
// of each call (serialising, parsing, validating structuredContent), so it bounds the layer's cost from above.
// Rounds are interleaved (the order rotates), figures are the median and range over rounds.
//   npx tsx bench/mcp-overhead.ts [--calls 300] [--rounds 9]

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createEngine } from '../src/engine/index.js';
import { createMcpFetchHandler, createMcpNodeHandler, serveMcpStdio } from '../src/mcp/index.js';
import { scriptedSource } from '../src/testing/index.js';
import { median, spread } from './lib/rounds.js';

const { values } = parseArgs({ options: { calls: { type: 'string' }, rounds: { type: 'string' } } });
const CALLS = Number(values.calls ?? 300);
const ROUNDS = Number(values.rounds ?? 9);

const engine = createEngine({
  sources: [scriptedSource('web', () => ({ results: [{ title: 'Cats', url: 'https://cats.test/', snippet: 'All about cats' }] }))],
  rateLimit: false,
});
await engine.admin.createOrganization('bench', { credits: 1_000_000 });
const key = await engine.admin.createApiKey('bench');
const INFO = { name: 'bench', version: '1' };

/** A client transport over two in-process streams, framed like stdio (one JSON-RPC message per line). */
class StreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();
  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}
  async start() {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
  }
  async send(message: JSONRPCMessage) {
    this.toServer.write(serializeMessage(message));
  }
  async close() {
    this.toServer.end();
    this.onclose?.();
  }
}

// stdio, in process
const toServer = new PassThrough();
const fromServer = new PassThrough();
const stdio = await serveMcpStdio(engine, { organization: 'bench', input: toServer, output: fromServer });
const stdioClient = new ClientV1(INFO);
await stdioClient.connect(new StreamTransport(toServer, fromServer));

// HTTP on loopback
const server = createServer(createMcpNodeHandler(createMcpFetchHandler(engine)));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
const requestInit = { headers: { authorization: `Bearer ${key}` } };
const http2025 = new ClientV1(INFO);
await http2025.connect(new HttpV1(url, { requestInit }));
const http2026 = new ClientV2(INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await http2026.connect(new HttpV2(url, { requestInit }));

// The SDK alone: a server with one tool that answers a fixed text, served the same way.
const { McpServer, createMcpHandler } = await import('@modelcontextprotocol/server');
const bare = createMcpHandler(() => {
  const s = new McpServer({ name: 'bare', version: '1' });
  s.registerTool('web_search', { description: 'fixed answer' }, async () => ({ content: [{ type: 'text', text: 'Cats' }] }));
  return s;
});
const bareServer = createServer(createMcpNodeHandler((request) => bare.fetch(request)));
bareServer.keepAliveTimeout = 60_000;
bareServer.listen(0, '127.0.0.1');
await once(bareServer, 'listening');
const bareUrl = new URL(`http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/mcp`);
const bare2025 = new ClientV1(INFO);
await bare2025.connect(new HttpV1(bareUrl));
const bare2026 = new ClientV2(INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await bare2026.connect(new HttpV2(bareUrl));

const call = (client: { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }) => async () => {
  const result = (await client.callTool({ name: 'web_search', arguments: { query: 'cats' } })) as { isError?: boolean };
  if (result.isError) throw new Error(JSON.stringify(result));
};
const loops: Record<string, () => Promise<unknown>> = {
  direct: () => engine.search({ q: 'cats' }, { organization: 'bench' }),
  stdio: call(stdioClient),
  'http-2025': call(http2025),
  'http-2026': call(http2026 as never),
  'sdk-bare-2025': call(bare2025),
  'sdk-bare-2026': call(bare2026 as never),
};

const names = Object.keys(loops);
const perCall: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const wall: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (const name of names) for (let i = 0; i < 50; i++) await loops[name]!(); // warm-up (and the first, charged search)
for (let round = 0; round < ROUNDS; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]!);
  for (const name of order) {
    const loop = loops[name]!;
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) await loop();
    const used = process.cpuUsage(cpu);
    perCall[name]!.push((used.user + used.system) / CALLS);
    wall[name]!.push(((performance.now() - started) * 1000) / CALLS);
  }
}

const f = (x: number) => x.toFixed(1);
const base = median(perCall['direct']!);
console.log(`${CALLS} calls × ${ROUNDS} interleaved rounds; CPU µs per call (user + system, client side included), median [range]`);
console.log('| path | CPU µs/call | range | × direct | MCP layer µs (median − direct) | wall µs/call, median (range) |');
console.log('|---|---|---|---|---|---|');
for (const name of names) {
  const xs = perCall[name]!;
  const m = median(xs);
  console.log(
    `| ${name} | ${f(m)} | ${f(Math.min(...xs))}–${f(Math.max(...xs))} | ${(m / base).toFixed(1)} | ${f(m - base)} | ${spread(wall[name]!)} |`,
  );
}

await Promise.all([stdioClient.close(), http2025.close(), http2026.close(), bare2025.close(), bare2026.close()]);
bareServer.closeAllConnections();
bareServer.close();
await stdio.close();
server.closeAllConnections();
server.close();
await engine.close();
