// `websift serve` as an operator watches it: one JSON access-log line per request on stdout (no key, no
// query), /healthz, /readyz and /metrics without a key, and the start check that refuses an unreachable
// Redis unless --start-unready.

import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_URL, serviceAvailable } from '../support/services.js';
import { closedPort, tcpProxy } from '../support/tcp-proxy.js';
import { mainCaptured } from './in-process.js';
import { PROCESS_START_BUDGET_MS, runCli, startCli, tempDb, waitForLine } from './run-cli.js';

/** A SearXNG stand-in: fails for "flaky", answers otherwise. */
const searxng = createServer((req, res) => {
  const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ results: [{ title: `About ${q}`, url: 'https://a.test/', content: 'text' }] }));
});

describe('websift serve: logs, health and metrics', () => {
  afterAll(() => searxng.close());

  it(
    'logs one JSON line per request with id, organization, credits and sources, never the key or the query',
    async () => {
      searxng.listen(0, '127.0.0.1');
      await once(searxng, 'listening');
      const db = tempDb();
      const config = join(dirname(db), 'config.json');
      // The first source is a closed port (fails at once): the SearXNG one answers as a fallback.
      const dead = `http://127.0.0.1:${await closedPort()}`;
      const live = `http://127.0.0.1:${(searxng.address() as AddressInfo).port}`;
      writeFileSync(
        config,
        JSON.stringify({
          localIndex: false,
          sources: [
            { type: 'searxng', id: 'dead', baseUrl: dead },
            { type: 'searxng', id: 'live', baseUrl: live },
          ],
          engine: { router: { retries: 0 } },
        }),
      );
      await mainCaptured(['org', 'create', 'acme', '--credits', '10', '--db', db]);
      const key = JSON.parse((await mainCaptured(['key', 'create', 'acme', '--db', db])).stdout).key as string;

      const child = startCli(['serve', '--port', '0', '--db', db, '--config', config]);
      let stdout = '';
      child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
      const [, url] = await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:\d+)[^\n]*\nready: database ok/);

      const search = await fetch(`${url}/api/search?q=private+words`, {
        headers: { authorization: `Bearer ${key}`, 'x-request-id': 'trace-me-1' },
      });
      expect(search.status).toBe(200);
      expect(search.headers.get('x-request-id')).toBe('trace-me-1');
      const denied = await fetch(`${url}/api/usage`, { headers: { authorization: 'Bearer ws_live_not_a_key' } });
      expect(denied.status).toBe(401);
      expect((await denied.json()).request_id).toBe(denied.headers.get('x-request-id'));
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({ status: 'ready', checks: { database: { status: 'ok' } } });
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await metrics.text();
      expect(text).toMatch(/websift_http_requests_total\{endpoint="\/api\/search",status="200"\} 1/);
      expect(text).toMatch(/websift_source_calls_total\{source="live",outcome="answered",role="fallback"\} 1/);

      child.kill('SIGTERM');
      await once(child, 'exit');
      const lines = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      const searchLine = lines.find((l) => l.path === '/api/search');
      expect(searchLine).toMatchObject({
        level: 'info',
        request_id: 'trace-me-1',
        method: 'GET',
        path: '/api/search',
        status: 200,
        organization: 'acme',
        credits: 1,
        outcome: 'success',
        sources: ['live'],
        fallback: true,
      });
      expect(typeof searchLine.duration_ms).toBe('number');
      expect(typeof searchLine.time).toBe('string');
      expect(lines.find((l) => l.path === '/api/usage')).toMatchObject({ status: 401, request_id: expect.any(String) });
      expect(lines.map((l) => l.path)).toEqual(['/api/search', '/api/usage', '/healthz', '/readyz', '/metrics']);
      expect(stdout).not.toContain(key);
      expect(stdout).not.toContain('private');
      expect(stdout).not.toContain('ws_live_not_a_key');
    },
    PROCESS_START_BUDGET_MS,
  );

  it(
    'refuses to start when Redis does not answer, naming it; --start-unready starts with /readyz 503',
    async () => {
      const redis = `redis://127.0.0.1:${await closedPort()}`;
      const refused = await runCli(['serve', '--port', '0', '--db', tempDb(), '--redis', redis]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/cannot start: redis \(not connected.*\) unreachable.*--start-unready/);

      const child = startCli([
        'serve',
        '--port',
        '0',
        '--db',
        tempDb(),
        '--redis',
        redis,
        '--start-unready',
        '--no-metrics',
        '--log-format',
        'text',
      ]);
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const [, url] = await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:\d+)[^\n]*\nNOT READY .*redis FAILING \(not connected/);
      const res = await fetch(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'not_ready', checks: { database: { status: 'ok' }, redis: { status: 'failing' } } });
      expect((await fetch(`${url}/metrics`)).status).toBe(404); // --no-metrics
      child.kill('SIGTERM');
      await once(child, 'exit');
      expect(stderr).toMatch(/GET \/readyz 503 \d+ms id=\S+/); // the text format
    },
    2 * PROCESS_START_BUDGET_MS,
  ); // two starts of serve

  it(
    'waits for a Redis that answers a moment after serve starts (up to 5 s), then starts ready',
    async (ctx) => {
      if (!(await serviceAvailable('Redis'))) return ctx.skip();
      const { hostname, port } = new URL(REDIS_URL);
      const proxy = await tcpProxy({ host: hostname, port: Number(port) });
      await proxy.stop(); // refused until started below
      try {
        const child = startCli(['serve', '--port', '0', '--db', tempDb(), '--redis', `redis://127.0.0.1:${proxy.port}`, '--no-metrics']);
        setTimeout(() => void proxy.start(), 1_500);
        await waitForLine(child, /listening on http:\/\/127\.0\.0\.1:\d+[^\n]*\nready: .*redis ok/);
        child.kill('SIGTERM');
        await once(child, 'exit');
      } finally {
        await proxy.close();
      }
    },
    PROCESS_START_BUDGET_MS,
  );

  it('refuses a --log-format other than json or text', async () => {
    const result = await runCli(['serve', '--port', '0', '--db', tempDb(), '--log-format', 'xml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--log-format must be json or text/);
  });
});
