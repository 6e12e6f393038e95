import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusLine } from '../../src/fetch/load-page.js';
import { invalidUrlReason } from '../../src/fetch/url-check.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { decoded, failure, localLoader, UA } from './helpers.js';

describe('invalid_url', () => {
  it.each([
    [42, 'string'],
    ['', 'empty'],
    ['/relative/path', 'absolute'],
    ['example.com', 'absolute'],
    ['ftp://example.com/file', 'http'],
    ['javascript:alert(1)', 'http'],
    ['file:///etc/passwd', 'http'],
    [`https://example.com/${'a'.repeat(2030)}`, '2048'],
  ])('%s is refused (%s)', (input, word) => {
    expect(invalidUrlReason(input)).toContain(word);
  });

  it('accepts absolute http(s) URLs up to 2,048 characters', () => {
    const url = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(url.length).toBe(2048);
    expect(invalidUrlReason(url)).toBeNull();
    expect(invalidUrlReason('http://example.com')).toBeNull();
  });

  it('the loader reports invalid_url without a request', async () => {
    const { loader, fetcher } = localLoader();
    const err = await failure(loader.load('ftp://example.com/x'));
    expect(err.type).toBe('invalid_url');
    expect(err.statusCode).toBe(0);
    await fetcher.close?.();
  });
});

describe('the page loader', () => {
  let server: PageServer;
  beforeAll(async () => {
    server = await startPageServer({
      '/page': { body: '<html><body><h1>Hello</h1></body></html>' },
      '/created': { status: 201, headers: { 'content-type': 'text/plain' }, body: 'made' },
      '/forbidden': { status: 403, body: 'no' },
      '/gone': { status: 410, body: 'gone' },
      '/boom': { status: 500, body: 'boom' },
      '/teapot': { status: 418, body: 'tea' },
      '/huge-404': (_req, res) => {
        res.writeHead(404, { 'content-type': 'text/html', 'content-length': String(20 * 1024 * 1024) });
        res.write('<p>not found</p>');
      },
      '/ua': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(req.headers['user-agent']),
      '/slow': (_req, res) => {
        const timer = setTimeout(() => res.end('late'), 10_000);
        res.on('close', () => clearTimeout(timer));
      },
    });
  });
  afterAll(() => server.close());
  const { loader, fetcher } = localLoader();
  afterAll(() => fetcher.close?.());

  it('returns the requested URL, final URL, status, mime type, Content-Type and the bytes (decoded by their reader)', async () => {
    const url = `${server.url('/page')}#section`;
    const doc = await loader.load(url);
    const { body, ...rest } = doc;
    expect(rest).toEqual({
      url,
      finalUrl: server.url('/page'),
      status: 200,
      mimeType: 'text/html',
      contentType: 'text/html; charset=utf-8',
    });
    expect(Buffer.from(body).toString('utf8')).toBe('<html><body><h1>Hello</h1></body></html>');
    expect(decoded(doc)).toMatchObject({ text: '<html><body><h1>Hello</h1></body></html>', charset: 'utf-8' });
  });

  it('any 2xx is a success', async () => {
    expect((await loader.load(server.url('/created'))).status).toBe(201);
  });

  it.each([
    ['/missing', 404, 'HTTP 404 Not Found'],
    ['/forbidden', 403, 'HTTP 403 Forbidden'],
    ['/gone', 410, 'HTTP 410 Gone'],
    ['/boom', 500, 'HTTP 500 Internal Server Error'],
    ['/teapot', 418, "HTTP 418 I'm a Teapot"],
  ])('%s → http with status %i', async (path, status, message) => {
    const err = await failure(loader.load(server.url(path)));
    expect(err.type).toBe('http');
    expect(err.statusCode).toBe(status);
    expect(err.message).toBe(message);
  });

  it('an error page over the size cap is still reported as http with its status', async () => {
    const err = await failure(loader.load(server.url('/huge-404')));
    expect(err.type).toBe('http');
    expect(err.statusCode).toBe(404);
  });

  it('formats unknown statuses too', () => {
    expect(statusLine(599)).toBe('HTTP 599');
  });

  it('sends the configured user agent', async () => {
    expect(decoded(await loader.load(server.url('/ua'))).text).toBe(UA);
  });

  it('the per-URL deadline is a timeout', async () => {
    // '/slow' answers after 10 s, a success: only the 300 ms deadline turns it into a timeout. No
    // wall-clock bound (the machine's load is not the rule).
    const { loader: quick, fetcher: f } = localLoader({ timeoutMs: 300 });
    const err = await failure(quick.load(server.url('/slow')));
    expect(err.type).toBe('timeout');
    await f.close?.();
  });

  it("the caller's signal aborts the load (reported as timeout)", async () => {
    const controller = new AbortController();
    const pending = loader.load(server.url('/slow'), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('request deadline')), 100);
    const err = await failure(pending);
    expect(err.type).toBe('timeout');
    expect(err.message).toContain('request deadline');
  });
});
