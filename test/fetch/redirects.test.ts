import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageLoader } from '../../src/fetch/load-page.js';
import { createUndiciFetcher } from '../../src/fetch/undici-fetcher.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { decoded, failure, localLoader, UA } from './helpers.js';

const redirect = (location: string, status = 302) => ({ status, headers: { location }, body: '' });

describe('redirects', () => {
  let server: PageServer;
  let redirectBodyWritten = -1;
  beforeAll(async () => {
    server = await startPageServer({
      '/final': { body: '<p>done</p>' },
      '/r1': redirect('/r2', 301),
      '/r2': redirect('/r3', 303),
      '/r3': redirect('/r4', 307),
      '/r4': redirect('/r5', 308),
      '/r5': redirect('/final'),
      '/r0': redirect('/r1'),
      '/loop-a': redirect('/loop-b'),
      '/loop-b': redirect('/loop-a'),
      '/self': redirect('/self'),
      '/to-file': redirect('file:///etc/passwd'),
      '/to-javascript': redirect('javascript:alert(1)'),
      '/to-pdf': redirect('/doc.pdf'),
      '/doc.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.7' },
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
      '/to-loopback-literal': redirect('http://127.0.0.1:1/'),
      '/to-evil': redirect('http://evil.test/'),
      '/no-location': { status: 302, body: 'nowhere' },
      '/to-missing': redirect('/missing'),
      '/fragment': redirect('/final#part'),
      '/endless-redirect-body': (_req, res) => {
        res.writeHead(302, { location: '/final', 'content-type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let written = 0;
        res.on('close', () => (redirectBodyWritten = written));
        const pump = (): void => {
          while (!res.destroyed && written < 200 * 1024 * 1024) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      },
    });
  });
  afterAll(() => server.close());

  const { loader, fetcher } = localLoader();
  afterAll(() => fetcher.close?.());

  it('follows 5 redirects (301/302/303/307/308) and reports the final URL and status', async () => {
    const doc = await loader.load(server.url('/r1'));
    expect(doc.status).toBe(200);
    expect(doc.finalUrl).toBe(server.url('/final'));
    expect(doc.url).toBe(server.url('/r1'));
    expect(decoded(doc).text).toBe('<p>done</p>');
  });

  it('refuses a 6th redirect', async () => {
    const before = server.requests.filter((r) => r.path === '/final').length;
    const err = await failure(loader.load(server.url('/r0')));
    expect(err.type).toBe('too_many_redirects');
    expect(server.requests.filter((r) => r.path === '/final').length).toBe(before);
  });

  it('stops a loop at the first revisit', async () => {
    const before = server.requests.length;
    const err = await failure(loader.load(server.url('/loop-a')));
    expect(err.type).toBe('too_many_redirects');
    expect(err.statusCode).toBe(302);
    expect(server.requests.length - before).toBe(2);
    expect((await failure(loader.load(server.url('/self')))).type).toBe('too_many_redirects');
  });

  it('a redirect to a non-http(s) scheme is invalid_url', async () => {
    expect((await failure(loader.load(server.url('/to-file')))).type).toBe('invalid_url');
    expect((await failure(loader.load(server.url('/to-javascript')))).type).toBe('invalid_url');
  });

  it('a redirect to a binary extension is refused before that hop is requested', async () => {
    const err = await failure(loader.load(server.url('/to-pdf')));
    expect(err.type).toBe('unsupported_content_type');
    expect(server.requests.some((r) => r.path === '/doc.pdf')).toBe(false);
  });

  it('a 3xx without Location is a final http failure; a redirect to a 404 reports 404', async () => {
    const noLocation = await failure(loader.load(server.url('/no-location')));
    expect(noLocation.type).toBe('http');
    expect(noLocation.statusCode).toBe(302);
    const missing = await failure(loader.load(server.url('/to-missing')));
    expect(missing.type).toBe('http');
    expect(missing.statusCode).toBe(404);
    expect(missing.message).toBe('HTTP 404 Not Found');
  });

  it("does not download a redirect's body", async () => {
    const doc = await loader.load(server.url('/endless-redirect-body'));
    expect(doc.finalUrl).toBe(server.url('/final'));
    for (let i = 0; i < 100 && redirectBodyWritten < 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(redirectBodyWritten).toBeGreaterThan(0);
    expect(redirectBodyWritten).toBeLessThan(30 * 1024 * 1024);
  });

  it('drops the fragment of a redirect target', async () => {
    expect((await loader.load(server.url('/fragment'))).finalUrl).toBe(server.url('/final'));
  });

  describe('with the address policy on (only the test server allowed)', () => {
    let guarded: ReturnType<typeof createPageLoader>;
    let guardedFetcher: ReturnType<typeof createUndiciFetcher>;
    beforeAll(() => {
      guardedFetcher = createUndiciFetcher({
        userAgent: UA,
        allowEndpoints: [`127.0.0.1:${server.port}`],
        lookup: (host, _o, cb) =>
          host === 'evil.test'
            ? cb(null, [{ address: '127.0.0.1', family: 4 }])
            : cb(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), ''),
      });
      guarded = createPageLoader({ fetcher: guardedFetcher, clock: new ManualClock(), userAgent: UA, robots: false });
    });
    afterAll(async () => {
      await guardedFetcher.close?.();
    });

    it('the allowed first hop loads', async () => {
      expect((await guarded.load(server.url('/final'))).status).toBe(200);
    });

    it.each(['/to-metadata', '/to-loopback-literal', '/to-evil'])('%s → blocked_address', async (path) => {
      const err = await failure(guarded.load(server.url(path)));
      expect(err.type).toBe('blocked_address');
    });
  });
});
