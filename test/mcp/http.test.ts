// MCP over HTTP: the API's Bearer keys (401 otherwise), statelessness (any instance answers any
// request), and /mcp on a real `websift serve`.

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { createMcpFetchHandler, createMcpNodeHandler } from '../../src/mcp/index.js';
import { errorBody, extractResponse, usageResponse } from '../../src/schema/index.js';
import { scriptedSource } from '../../src/testing/index.js';
import { startCli, tempDb, waitForLine } from '../cli/run-cli.js';
import { type CliFixture, cliFixture } from './cli-fixture.js';
import { GENERATIONS, httpClient } from './clients.js';
import { type McpHarness, mcpHarness, SCRIPT, textOf } from './harness.js';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(initialize),
  });

describe('authentication', () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await mcpHarness();
  });
  afterAll(() => h.close());

  it.each([
    ['no key', {}],
    ['a bad key', { authorization: 'Bearer ws_live_not-a-key' }],
    ['a revoked key', 'revoked'],
  ] as const)('answers 401 with the API error body to %s', async (_, headers) => {
    let sent: Record<string, string> = headers === 'revoked' ? {} : { ...headers };
    if (headers === 'revoked') {
      const key = await h.engine.admin.createApiKey('acme');
      await h.engine.admin.revokeApiKey(key);
      sent = { authorization: `Bearer ${key}` };
    }
    const res = await post(h.url, sent);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    const body = errorBody.parse(await res.json());
    expect(body).toMatchObject({ code: 'unauthorized' });
    expect(Date.parse(body.metadata.timestamp)).toBeGreaterThan(Date.parse('2026-01-01')); // stamped now
  });

  it.each(GENERATIONS)('the %s client cannot connect with a bad key', async (generation) => {
    await expect(httpClient(generation, h.url, 'ws_live_wrong')).rejects.toThrow();
  });

  it('serves the organization of the key', async () => {
    await h.engine.admin.createOrganization('other', { credits: 7 });
    const client = await h.connect('v2', await h.engine.admin.createApiKey('other'));
    expect(usageResponse.parse((await client.call('usage')).structuredContent)).toMatchObject({
      organization: 'other',
      credits: { balance: 7 },
    });
  });
});

describe.each(GENERATIONS)('stateless (%s client)', (generation) => {
  it('works when every request goes to another instance (two engines on one database, alternating)', async () => {
    const database = tempDb();
    const engines = [0, 1].map(() => createEngine({ database, sources: [scriptedSource('primary', SCRIPT)], rateLimit: false }));
    await engines[0]!.admin.createOrganization('acme', { credits: 10 });
    const key = await engines[0]!.admin.createApiKey('acme');
    const instances = engines.map((engine) => createMcpNodeHandler(createMcpFetchHandler(engine)));
    let next = 0;
    const served = [0, 0];
    const balancer = createServer((req, res) => {
      const i = next++ % 2;
      served[i]!++;
      instances[i]!(req, res);
    });
    balancer.listen(0, '127.0.0.1');
    await once(balancer, 'listening');
    try {
      const client = await httpClient(generation, `http://127.0.0.1:${(balancer.address() as AddressInfo).port}/mcp`, key);
      expect((await client.tools()).length).toBe(3);
      expect((await client.call('web_search', { query: 'cats' })).isError).toBeFalsy();
      expect(usageResponse.parse((await client.call('usage')).structuredContent).credits).toEqual({ balance: 9, used: 1 });
      await client.close();
      expect(served[0]).toBeGreaterThan(0);
      expect(served[1]).toBeGreaterThan(0);
    } finally {
      balancer.closeAllConnections();
      balancer.close();
      await Promise.all(engines.map((e) => e.close()));
    }
  }, 20_000);
});

describe('/mcp on websift serve', () => {
  let f: CliFixture;
  let url: string;
  let child: ReturnType<typeof startCli>;
  let log = '';
  beforeAll(async () => {
    f = await cliFixture();
    child = startCli(['serve', '--port', '0', '--log-format', 'text', ...f.storage]);
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    [, url] = (await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/)) as unknown as [string, string];
  }, 30_000);
  afterAll(async () => {
    child.kill('SIGTERM');
    await once(child, 'exit');
    await f.close();
  });

  it('answers 401 without a key, and the API beside it still works', async () => {
    expect((await post(`${url}/mcp`)).status).toBe(401);
    expect((await fetch(`${url}/api/usage`, { headers: { authorization: `Bearer ${f.key}` } })).status).toBe(200);
  });

  it.each(GENERATIONS)(
    'serves the tools to the %s client with the API key',
    async (generation) => {
      const client = await httpClient(generation, `${url}/mcp`, f.key);
      try {
        const page = await client.call('web_extract', { urls: [f.pages.url('/short.html')] });
        expect(extractResponse.parse(page.structuredContent).results[0]!.success).toBe(true);
        expect(textOf(page)).toContain('Tide pools');
        expect(usageResponse.parse((await client.call('usage')).structuredContent).organization).toBe('acme');
      } finally {
        await client.close();
      }
      expect(log).toMatch(/POST \/mcp 200 \d+ms/); // logged like the API's requests
    },
    20_000,
  );
});

describe('a malformed Host header', () => {
  it('is answered (401 without a key) and the server keeps serving', async () => {
    const h = await mcpHarness();
    try {
      const { connect } = await import('node:net');
      const port = new URL(h.url).port;
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.end('POST /mcp HTTP/1.1\r\nHost: bad host[\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
        );
        let data = '';
        socket.on('data', (d) => (data += d.toString()));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 (401|400) /);
      const client = await h.connect('v1');
      expect((await client.tools()).length).toBe(3);
    } finally {
      await h.close();
    }
  });
});

describe('when the key store cannot answer', () => {
  it("answers the API's 503 (retryable), not a server fault", async () => {
    const { LedgerUnavailableError } = await import('../../src/errors.js');
    const engine = createEngine({ sources: [scriptedSource('primary', SCRIPT)] });
    const failing = Object.create(engine, {
      authenticate: {
        value: async () => {
          throw new LedgerUnavailableError();
        },
      },
    });
    const handle = createMcpFetchHandler(failing);
    try {
      const res = await handle(
        new Request('http://websift.test/mcp', {
          method: 'POST',
          headers: { authorization: 'Bearer ws_live_x', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify(initialize),
        }),
      );
      expect(res.status).toBe(503);
      expect(errorBody.parse(await res.json())).toMatchObject({ code: 'ledger_unavailable', retryable: true });
    } finally {
      await engine.close();
    }
  });
});
