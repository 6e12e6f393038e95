// docs/openapi.json against the live server: a table of requests, successes and every error status, each
// through the real handler (real engine, SQLite, scripted sources, a loopback page server), and each answer's
// status, headers and body checked against the document with Ajv (openapi-validator.ts).

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapi } from '../../src/http/index.js';
import { type PageServer, scriptedSource, startPageServer } from '../../src/testing/index.js';
import type { Engine } from '../../src/types/index.js';
import { type Harness, harness, postJson } from './harness.js';
import { conformance, declaredReply, replyOf } from './openapi-validator.js';

const HOLDER = fileURLToPath(new URL('../adapters/fixtures/lock-holder.mjs', import.meta.url));

interface Row {
  name: string;
  path: string;
  method: string;
  status: number;
  /** Headers the answer must carry (so the header check has something to check). */
  headers?: string[];
  run(): Promise<Response>;
}

let pages: PageServer;
let dir: string;
/** Ends the calls a row leaves running. */
const stop = new AbortController();
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  pages = await startPageServer({
    '/article': {
      headers: { 'content-type': 'text/html' },
      body: `<html><head><title>T</title></head><body><article><p>${'Plenty of words in here. '.repeat(30)}</p></article></body></html>`,
    },
  });
  pages.route('/never', () => {});
  dir = mkdtempSync(join(tmpdir(), 'websift-openapi-'));
});
afterAll(async () => {
  // Calls left running (a hanging source, a page that never answers) end first, then the engines close.
  stop.abort();
  await pages.close();
  await Promise.all(closers.splice(0).map((close) => close()));
  rmSync(dir, { recursive: true, force: true });
});

async function h(options: Parameters<typeof harness>[0] = {}): Promise<Harness> {
  const made = await harness({ ...options, engine: { allowEndpoints: [`127.0.0.1:${pages.port}`], robots: false, ...options.engine } });
  closers.push(() => made.engine.close());
  return made;
}

/** A rate limiter whose store is down: every endpoint answers 503 rate_limiter_unavailable. */
const downLimiter = { policy: { limit: 20, window: 2 }, take: () => Promise.reject(new Error('limiter store down')) };

/** A repeat-window store whose required reads fail (Redis answering late): crawl answers 503 cache_unavailable. */
const lateWindows = {
  get: (_key: string, options?: { required?: boolean }) =>
    options?.required ? Promise.reject(new Error('timed out')) : Promise.resolve(undefined),
  set: () => Promise.resolve(),
  delete: () => Promise.resolve(),
};

/** A harness on a SQLite file whose write lock another process holds (503 ledger_unavailable). */
async function locked(): Promise<Harness> {
  const file = join(dir, `locked-${closers.length}.db`);
  const made = await h({ engine: { database: file, lockWaitMs: 1_000 } });
  const child = spawn(process.execPath, [HOLDER, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()).includes('locked') && resolve());
    child.on('exit', () => reject(new Error('lock holder exited')));
  });
  closers.push(() => child.kill());
  return made;
}

const rows: Row[] = [
  // /api/search
  { name: 'search GET: results', path: '/api/search', method: 'GET', status: 200, run: async () => (await h()).call('/api/search?q=cats') },
  {
    name: 'search GET: no_results',
    path: '/api/search',
    method: 'GET',
    status: 200,
    run: async () => (await h()).call('/api/search?q=zzz'),
  },
  {
    name: 'search POST with engine: Deprecation and Link',
    path: '/api/search',
    method: 'POST',
    status: 200,
    headers: ['deprecation', 'link'],
    run: async () => (await h()).call('/api/search', postJson({ q: 'cats', engine: 'google' })),
  },
  {
    name: 'search POST replayed',
    path: '/api/search',
    method: 'POST',
    status: 200,
    headers: ['idempotent-replayed'],
    run: async () => {
      const t = await h();
      const init = { ...postJson({ q: 'cats' }), headers: { 'idempotency-key': 'k1' } };
      await t.call('/api/search', init);
      return t.call('/api/search', init);
    },
  },
  {
    name: 'search POST: malformed JSON',
    path: '/api/search',
    method: 'POST',
    status: 400,
    run: async () => (await h()).call('/api/search', postJson('{oops')),
  },
  {
    name: 'search GET: bad parameter, with engine',
    path: '/api/search',
    method: 'GET',
    status: 400,
    headers: ['deprecation', 'link'],
    run: async () => (await h()).call('/api/search?q=cats&content_results=99&engine=x'),
  },
  {
    name: 'search GET: no key',
    path: '/api/search',
    method: 'GET',
    status: 401,
    headers: ['www-authenticate'],
    run: async () => (await h()).call('/api/search?q=cats', { key: null }),
  },
  {
    name: 'search GET: no credits',
    path: '/api/search',
    method: 'GET',
    status: 402,
    run: async () => (await h({ credits: 0 })).call('/api/search?q=cats'),
  },
  {
    name: 'search DELETE',
    path: '/api/search',
    method: 'DELETE',
    status: 405,
    headers: ['allow'],
    run: async () => (await h()).call('/api/search?q=cats&engine=x', { method: 'DELETE' }),
  },
  {
    name: 'search POST: body too slow',
    path: '/api/search',
    method: 'POST',
    status: 408,
    run: async () => {
      const t = await h({ http: { bodyTimeoutMs: 20 } });
      const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"q":')) });
      return t.call('/api/search', { method: 'POST', body, duplex: 'half' } as RequestInit);
    },
  },
  {
    name: 'search POST: same key still running',
    path: '/api/search',
    method: 'POST',
    status: 409,
    run: async () => {
      const t = await h({ sources: [scriptedSource('slow', { cats: { hang: true } })] });
      const init = { ...postJson({ q: 'cats' }), headers: { 'idempotency-key': 'busy' }, signal: stop.signal };
      void t.call('/api/search', init).catch(() => {});
      return t.call('/api/search', init);
    },
  },
  {
    name: 'search POST: too large',
    path: '/api/search',
    method: 'POST',
    status: 413,
    run: async () => (await h()).call('/api/search', postJson({ q: 'x'.repeat(70_000) })),
  },
  {
    name: 'search GET: rate limited at the default policy',
    path: '/api/search',
    method: 'GET',
    status: 429,
    headers: ['retry-after', 'ratelimit-policy', 'ratelimit'],
    run: async () => {
      const t = await h({});
      for (let i = 0; i < 20; i++) await t.call('/api/usage');
      return t.call('/api/search?q=cats');
    },
  },
  {
    name: 'search GET: unexpected exception',
    path: '/api/search',
    method: 'GET',
    status: 500,
    run: async () =>
      (await h({ wrap: (e) => ({ ...e, search: () => Promise.reject(new Error('boom')) }) as Engine })).call('/api/search?q=cats'),
  },
  {
    name: 'search GET: every source failed',
    path: '/api/search',
    method: 'GET',
    status: 503,
    run: async () => (await h({ sources: [scriptedSource('down', () => ({ fail: 'x' }))] })).call('/api/search?q=cats'),
  },
  {
    name: 'search POST: rate limiter down',
    path: '/api/search',
    method: 'POST',
    status: 503,
    run: async () => (await h({ engine: { rateLimiter: downLimiter } })).call('/api/search', postJson({ q: 'cats' })),
  },
  {
    name: 'search POST: books locked',
    path: '/api/search',
    method: 'POST',
    status: 503,
    run: async () => {
      const t = await locked();
      return t.clock.drive(t.call('/api/search', postJson({ q: 'cats' })));
    },
  },
  // /api/crawl
  {
    name: 'crawl: a page',
    path: '/api/crawl',
    method: 'POST',
    status: 200,
    run: async () => {
      const t = await h();
      return t.clock.drive(t.call('/api/crawl', postJson({ urls: [pages.url('/article')] })));
    },
  },
  {
    name: 'crawl: bad urls',
    path: '/api/crawl',
    method: 'POST',
    status: 400,
    run: async () => (await h()).call('/api/crawl', postJson({ urls: 'x' })),
  },
  {
    name: 'crawl: x-api-key is not accepted',
    path: '/api/crawl',
    method: 'POST',
    status: 401,
    run: async () => {
      const t = await h();
      return t.call('/api/crawl', { ...postJson({ urls: [pages.url('/article')] }), key: null, headers: { 'x-api-key': t.key } });
    },
  },
  {
    name: 'crawl: no credits',
    path: '/api/crawl',
    method: 'POST',
    status: 402,
    run: async () => (await h({ credits: 0 })).call('/api/crawl', postJson({ urls: [pages.url('/article')] })),
  },
  {
    name: 'crawl: GET',
    path: '/api/crawl',
    method: 'GET',
    status: 405,
    headers: ['allow'],
    run: async () => (await h()).call('/api/crawl'),
  },
  {
    name: 'crawl: body too slow',
    path: '/api/crawl',
    method: 'POST',
    status: 408,
    run: async () => {
      const t = await h({ http: { bodyTimeoutMs: 20 } });
      const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"urls":')) });
      return t.call('/api/crawl', { method: 'POST', body, duplex: 'half' } as RequestInit);
    },
  },
  {
    name: 'crawl: same key still running',
    path: '/api/crawl',
    method: 'POST',
    status: 409,
    run: async () => {
      const t = await h();
      const init = { ...postJson({ urls: [pages.url('/never')] }), headers: { 'idempotency-key': 'busy' }, signal: stop.signal };
      void t.call('/api/crawl', init).catch(() => {});
      return t.call('/api/crawl', init);
    },
  },
  {
    name: 'crawl: too large',
    path: '/api/crawl',
    method: 'POST',
    status: 413,
    run: async () => (await h()).call('/api/crawl', postJson({ urls: ['x'.repeat(70_000)] })),
  },
  {
    name: 'crawl: rate limiter down',
    path: '/api/crawl',
    method: 'POST',
    status: 503,
    run: async () => (await h({ engine: { rateLimiter: downLimiter } })).call('/api/crawl', postJson({ urls: [pages.url('/article')] })),
  },
  {
    name: 'crawl: window store not answering',
    path: '/api/crawl',
    method: 'POST',
    status: 503,
    run: async () =>
      (await h({ engine: { caches: { repeats: lateWindows } } })).call('/api/crawl', postJson({ urls: [pages.url('/article')] })),
  },
  {
    name: 'crawl: books locked',
    path: '/api/crawl',
    method: 'POST',
    status: 503,
    run: async () => {
      const t = await locked();
      return t.clock.drive(t.call('/api/crawl', postJson({ urls: [pages.url('/article')] })));
    },
  },
  {
    name: 'crawl: deadline',
    path: '/api/crawl',
    method: 'POST',
    status: 504,
    run: async () => {
      const t = await h();
      const answer = t.call('/api/crawl', postJson({ urls: [pages.url('/never')] }));
      await t.clock.advance(30_000);
      return answer;
    },
  },
  {
    name: 'crawl: rate limited',
    path: '/api/crawl',
    method: 'POST',
    status: 429,
    headers: ['retry-after', 'ratelimit-policy', 'ratelimit'],
    run: async () => {
      const t = await h({ engine: { rateLimit: { limit: 1, window: 2 } } });
      await t.call('/api/usage');
      return t.call('/api/crawl', postJson({ urls: [pages.url('/article')] }));
    },
  },
  {
    name: 'crawl: unexpected exception',
    path: '/api/crawl',
    method: 'POST',
    status: 500,
    run: async () =>
      (await h({ wrap: (e) => ({ ...e, extract: () => Promise.reject(new Error('boom')) }) as Engine })).call(
        '/api/crawl',
        postJson({ urls: [pages.url('/article')] }),
      ),
  },
  {
    name: 'usage: unexpected exception',
    path: '/api/usage',
    method: 'GET',
    status: 500,
    run: async () => (await h({ wrap: (e) => ({ ...e, usage: () => Promise.reject(new Error('boom')) }) as Engine })).call('/api/usage'),
  },
  // /api/usage
  { name: 'usage', path: '/api/usage', method: 'GET', status: 200, run: async () => (await h()).call('/api/usage') },
  {
    name: 'usage: no key',
    path: '/api/usage',
    method: 'GET',
    status: 401,
    headers: ['www-authenticate'],
    run: async () => (await h()).call('/api/usage', { key: null }),
  },
  {
    name: 'usage: PUT',
    path: '/api/usage',
    method: 'PUT',
    status: 405,
    headers: ['allow'],
    run: async () => (await h()).call('/api/usage', { method: 'PUT' }),
  },
  {
    name: 'usage: rate limited',
    path: '/api/usage',
    method: 'GET',
    status: 429,
    headers: ['retry-after'],
    run: async () => {
      const t = await h({ engine: { rateLimit: { limit: 1, window: 2 } } });
      await t.call('/api/usage');
      return t.call('/api/usage');
    },
  },
  {
    name: 'usage: rate limiter down',
    path: '/api/usage',
    method: 'GET',
    status: 503,
    run: async () => (await h({ engine: { rateLimiter: downLimiter } })).call('/api/usage'),
  },
  // no endpoint
  { name: 'unknown path', path: '/api/nope', method: 'GET', status: 404, run: async () => (await h()).call('/api/nope') },
];

describe('docs/openapi.json against the live handler', () => {
  it.each(rows)('$name → $status', async (row) => {
    const res = await row.run();
    expect(res.status, row.name).toBe(row.status);
    const reply = await replyOf(res);
    for (const name of row.headers ?? []) expect(reply.headers.has(name), `${row.name}: ${name}`).toBe(true);
    expect(conformance(reply, row.path, row.method), JSON.stringify(reply.body)).toEqual([]);
  });

  it('covers every status the document declares for each operation', () => {
    for (const [path, item] of Object.entries(openapi.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, { responses: object }>)) {
        for (const status of Object.keys(operation.responses)) {
          const covered = rows.some(
            (r) =>
              r.path === path &&
              r.status === Number(status) &&
              (r.method.toLowerCase() === method || (r.status === 405 && method !== 'post')),
          );
          const elsewhere = rows.some((r) => r.path === path && r.status === Number(status));
          // 404 is the server's answer to a path it lacks; it is in the table once, for /api/nope.
          if (status === '404') continue;
          expect(covered || elsewhere, `${method.toUpperCase()} ${path} ${status}`).toBe(true);
        }
      }
    }
  });

  it('the RateLimit-Policy example is what the server sends at its default policy', async () => {
    const t = await h({});
    let res: Response | undefined;
    for (let i = 0; i < 21; i++) res = await t.call('/api/usage');
    const declared = declaredReply('/api/search', 'GET', 429)!.headers as Record<string, { example: string }>;
    expect(res!.headers.get('ratelimit-policy')).toBe(declared['RateLimit-Policy']!.example);
  });

  it('the checker catches drift: an undeclared header, status or body field', async () => {
    const t = await h();
    const reply = await replyOf(await t.call('/api/usage'));
    expect(conformance(reply, '/api/usage', 'GET')).toEqual([]);
    expect(conformance({ ...reply, body: { ...(reply.body as object), extra: 1 } }, '/api/usage', 'GET')).not.toEqual([]);
    const headers = new Headers(reply.headers);
    headers.set('deprecation', '@1');
    expect(conformance({ ...reply, headers }, '/api/usage', 'GET')).not.toEqual([]);
    expect(conformance({ ...reply, status: 413 }, '/api/usage', 'GET')).not.toEqual([]);
    expect(conformance({ ...reply, status: 413 }, '/api/search', 'GET')).not.toEqual([]);
  });
});
