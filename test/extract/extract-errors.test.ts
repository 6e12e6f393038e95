// engine.extract per-URL outcomes: each error_type, end to end over a real loopback server.

import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/errors.js';
import type { ExtractParams } from '../../src/types/index.js';
import { article, balance, type ExtractSetup, extractSetup, html, ORG, warmConversion, withOrgs } from './helpers.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);

describe('extract per-URL errors', () => {
  let s: ExtractSetup;
  let closedPort: number;

  beforeAll(async () => {
    s = await extractSetup(
      {
        '/ok': html(article('Working page')),
        '/missing': html('<p>gone</p>', 404),
        '/binary': { headers: { 'content-type': 'text/html' }, body: PNG },
        '/image': { headers: { 'content-type': 'image/png' }, body: PNG },
        '/huge': { headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(10 * 1024 * 1024 + 1) },
        '/bomb': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
          res.end(zlib.gzipSync(Buffer.alloc(11 * 1024 * 1024)));
        },
        '/loop': { status: 302, headers: { location: '/loop2' } },
        '/loop2': { status: 302, headers: { location: '/loop' } },
        '/to-ftp': { status: 302, headers: { location: 'ftp://example.com/file' } },
        '/slow': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          const t = setInterval(() => res.write('.'), 100);
          res.on('close', () => clearInterval(t));
        },
        '/json': { headers: { 'content-type': 'application/json' }, body: '{"a":1,"b":[true,null]}' },
      },
      { pageTimeoutMs: 1_000 },
    );
    await withOrgs(s.engine);
    await warmConversion(s.engine, s.server.url('/json'));
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
  });
  afterAll(() => s.close());

  it('reports each error_type without failing the other URLs, charging only successes', async () => {
    const urls = [
      s.server.url('/ok'),
      s.server.url('/missing'),
      s.server.url('/binary'),
      s.server.url('/image'),
      s.server.url('/huge'),
      s.server.url('/report.pdf'),
      s.server.url('/loop'),
      `http://127.0.0.1:${closedPort}/`,
      s.server.url('/slow'),
      s.server.url('/json'),
    ];
    const before = await balance(s.engine);
    const res = await s.engine.extract({ urls }, ORG);
    const types = res.results.map((r) => (r.success ? 'ok' : r.error_type));
    expect(types).toEqual([
      'ok',
      'http',
      'unsupported_content_type',
      'unsupported_content_type',
      'too_large',
      'unsupported_content_type',
      'too_many_redirects',
      'network',
      'timeout',
      'ok',
    ]);
    expect(res.success).toBe(true);
    expect(res.results[1]).toMatchObject({ status_code: 404, markdown: '', error: 'HTTP 404 Not Found' });
    expect(res.results[0]?.markdown).toContain('Working page paragraph 1');
    expect(res.results[0]?.markdown).not.toContain('Copyright footer');
    expect(res.results[9]?.markdown).toContain('```json');
    expect(res.metadata).toMatchObject({ total_urls: 10, processed_urls: 10, successful_crawls: 2, failed_crawls: 8, credits_used: 2 });
    expect(res.metadata.cached_free).toBeUndefined();
    expect(res.metadata.stealth).toBeUndefined();
    expect(res.results.every((r) => r.stealth === undefined)).toBe(true);
    expect(await balance(s.engine)).toBe(before - 2);
    // The .pdf was refused on its extension: no request reached the server.
    expect(s.hits('/report.pdf')).toBe(0);
  });

  it('maps a gzip bomb to too_large and a redirect to another scheme to invalid_url', async () => {
    const res = await s.engine.extract({ urls: [s.server.url('/bomb'), s.server.url('/to-ftp')] }, ORG);
    expect(res.results.map((r) => r.error_type)).toEqual(['too_large', 'invalid_url']);
    expect(res.metadata.credits_used).toBe(0);
  });

  it('refuses private addresses unless allowed (blocked_address, no request sent)', async () => {
    const strict = await extractSetup({ '/ok': html(article('Private')) }, { allowPrivateNetwork: false });
    await withOrgs(strict.engine);
    try {
      const res = await strict.engine.extract({ urls: [strict.server.url('/ok'), 'http://169.254.169.254/latest/meta-data/'] }, ORG);
      expect(res.results.map((r) => r.error_type)).toEqual(['blocked_address', 'blocked_address']);
      expect(res.metadata.credits_used).toBe(0);
      expect(strict.hits('/ok')).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('returns the page HTML with format html', async () => {
    const res = await s.engine.extract({ urls: [s.server.url('/ok')], format: 'html' }, ORG);
    expect(res.results[0]?.html).toContain('<footer>Copyright footer text</footer>');
    expect(res.results[0]?.markdown).toBeUndefined();
  });

  it('answers 400 naming every bad field, with nothing charged or counted', async () => {
    const before = await s.engine.usage(ORG);
    const error = await s.engine
      .extract({ urls: ['ftp://x', 42, 'https://ok.example/'], format: 'pdf', stealth: 'yes' } as unknown as ExtractParams, ORG)
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.status).toBe(400);
    expect(error.body.problems.map((p: { field: string }) => p.field)).toEqual(['urls[0]', 'urls[1]', 'format', 'stealth']);
    const eleven = Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`);
    const tooMany = await s.engine.extract({ urls: eleven }, ORG).catch((e) => e);
    expect(tooMany.body.problems).toEqual([{ field: 'urls', message: expect.stringContaining('1 to 10') }]);
    expect(await s.engine.usage(ORG)).toEqual({ ...before, timestamp: expect.any(String) });
  });
});
