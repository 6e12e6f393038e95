import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainCaptured } from './in-process.js';
import { PROCESS_START_BUDGET_MS, startCli, tempDb, waitForLine } from './run-cli.js';

/** A SearXNG stand-in whose answers wait until the test releases them. */
function slowSearxng() {
  const waiting: (() => void)[] = [];
  let arrived: () => void = () => {};
  const server = createServer((_req, res) => {
    waiting.push(() =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ results: [{ title: 'Slow page', url: 'https://slow.test/page', content: 'It took a while' }] })),
    );
    arrived();
  });
  return {
    server,
    nextRequest: () => new Promise<void>((resolve) => (arrived = resolve)),
    release: () => waiting.splice(0).forEach((answer) => answer()),
  };
}

describe('websift serve', () => {
  const fake = slowSearxng();
  afterAll(() => fake.server.close());
  beforeAll(async () => {
    fake.server.listen(0, '127.0.0.1');
    await once(fake.server, 'listening');
  });
  // The in-process CLI's first command loads the admin modules (4.5-34 s, median 17 s, at a load of
  // 18-25): paid here, not inside a test's own timeout (the flake: a CI run's 20 s spent before the
  // server even started).
  beforeAll(async () => {
    await mainCaptured(['org', 'create', 'warm-up', '--db', tempDb()]);
  }, PROCESS_START_BUDGET_MS);

  it(
    'serves the API, logs each request, and on SIGTERM stops accepting, finishes in-flight work and keeps its charge',
    async () => {
      const db = tempDb();
      const config = join(dirname(db), 'config.json');
      const baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
      writeFileSync(config, JSON.stringify({ localIndex: false, sources: [{ type: 'searxng', baseUrl }] }));
      await mainCaptured(['org', 'create', 'acme', '--credits', '10', '--db', db]);
      const key = JSON.parse((await mainCaptured(['key', 'create', 'acme', '--db', db])).stdout).key as string;
      const auth = { authorization: `Bearer ${key}` };

      const child = startCli(['serve', '--port', '0', '--log-format', 'text', '--db', db, '--config', config]);
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = once(child, 'exit');
      const [, url] = await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/);

      const usage = await fetch(`${url}/api/usage`, { headers: auth });
      expect(usage.status).toBe(200);
      await waitForLine(child, /GET \/api\/usage 200 \d+ms/);

      // A search is in flight (the source has not answered) when the signal arrives.
      const arrived = fake.nextRequest();
      const search = fetch(`${url}/api/search?q=slow`, { headers: auth });
      await arrived;
      child.kill('SIGTERM');
      await waitForLine(child, /SIGTERM: finishing in-flight requests/);
      await expect(fetch(`${url}/api/usage`, { headers: auth })).rejects.toThrow(); // no longer accepting
      fake.release();

      const answer = await search;
      expect(answer.status).toBe(200);
      expect((await answer.json()).metadata.credits_used).toBe(1);
      const [code] = await exited;
      expect(code).toBe(0);
      expect(stderr).toMatch(/GET \/api\/search 200 \d+ms/);
      expect(stderr).toMatch(/stopped/);

      const after = JSON.parse((await mainCaptured(['usage', '--db', db])).stdout);
      expect(after).toMatchObject({ credits: { balance: 9, used: 1 }, requests: { search: 1 } });
    },
    PROCESS_START_BUDGET_MS,
  );

  it(
    'drops requests still unfinished after --grace and exits',
    async () => {
      const db = tempDb();
      const config = join(dirname(db), 'config.json');
      const baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
      // The process ends once the abandoned search gives up (its source's attempt times out), but the
      // attempt must outlast the grace: at 600 ms, a SIGTERM handled 400 ms after the source got the
      // request (a loaded CI) let the search end (503) before the grace did, with nothing left to drop.
      writeFileSync(
        config,
        JSON.stringify({
          localIndex: false,
          sources: [{ type: 'searxng', baseUrl }],
          engine: { router: { attemptTimeoutMs: 3_000, retries: 0 } },
        }),
      );
      await mainCaptured(['org', 'create', 'acme', '--credits', '10', '--db', db]);
      const key = JSON.parse((await mainCaptured(['key', 'create', 'acme', '--db', db])).stdout).key as string;
      const child = startCli(['serve', '--port', '0', '--grace', '0.2', '--db', db, '--config', config]);
      const exited = once(child, 'exit');
      const [, url] = await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const arrived = fake.nextRequest();
      const search = fetch(`${url}/api/search?q=never`, { headers: { authorization: `Bearer ${key}` } }).catch((e: Error) => e);
      await arrived; // the source holds its answer; nobody releases it
      child.kill('SIGTERM');
      await waitForLine(child, /dropped 1 request\(s\) still unfinished after 0\.2 s/);
      expect((await exited)[0]).toBe(0);
      expect(await search).toBeInstanceOf(Error); // the connection was dropped
      fake.release();
      const after = JSON.parse((await mainCaptured(['usage', '--db', db])).stdout);
      expect(after.credits).toEqual({ balance: 10, used: 0 }); // nothing charged for the dropped search
    },
    PROCESS_START_BUDGET_MS,
  );

  it('reports a port in use as a one-line error with exit 1', async () => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = String((blocker.address() as AddressInfo).port);
    const res = await mainCaptured(['serve', '--port', port, '--db', tempDb()]);
    blocker.close();
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/EADDRINUSE/);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });
});
