// `websift extract` on a Redis that accepts the connection and answers nothing (a partition): the URL's
// window read is a required read, so the call is refused with the API's 503 cache_unavailable body on
// stdout, its code on stderr, exit 1, nothing charged; healed, the same command is answered.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageServer, startPageServer } from '../../src/testing/index.js';
import { deleteKeys, REDIS_URL, redisProxy, testPrefix } from '../redis/redis-kit.js';
import { serviceAvailable } from '../support/services.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { mainCaptured } from './in-process.js';

const redis = await serviceAvailable('Redis');
const page = `<!doctype html><html><head><title>Kept</title></head><body><article><h1>Kept</h1>
  <p>${'A paragraph long enough to be the main content of the page. '.repeat(8)}</p></article></body></html>`;

describe.skipIf(!redis)('websift extract when the window store does not answer', () => {
  let dir: string;
  let prefix: string;
  let proxy: TcpProxy;
  let server: PageServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'websift-cli-cache-'));
    prefix = testPrefix('cli_cache');
    proxy = await redisProxy();
    server = await startPageServer({ '/a': { body: page } });
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
    await deleteKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the 503 cache_unavailable body and exits 1, nothing charged', { timeout: 60_000 }, async () => {
    const config = join(dir, 'config.json');
    const engine = { rateLimit: false, robots: false, allowEndpoints: [`127.0.0.1:${server.port}`], redisPrefix: prefix };
    writeFileSync(config, JSON.stringify({ localIndex: false, engine }));
    const common = ['--database', join(dir, 'books.db'), '--config', config];
    const created = await mainCaptured(['org', 'create', 'acme', '--credits', '5', '--redis', REDIS_URL, ...common]);
    expect(created.stderr).toBe('');
    const extract = ['extract', server.url('/a'), '--redis', `redis://127.0.0.1:${proxy.port}`, ...common];

    proxy.mode = 'partition'; // the first connection is waited for (firstConnectWaitMs), then the read refused
    const refused = await mainCaptured(extract);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 'error', code: 'cache_unavailable', retryable: true });
    expect(refused.stderr).toContain('(cache_unavailable)');

    proxy.mode = 'forward';
    const usage = JSON.parse((await mainCaptured(['usage', '--redis', REDIS_URL, ...common])).stdout);
    expect(usage.credits).toMatchObject({ balance: 5, used: 0 });
    const answered = await mainCaptured(extract);
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout).metadata.credits_used).toBe(1);
  });
});
