import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import robotsParserModule from 'robots-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPageLoader } from '../../src/fetch/load-page.js';
import { productToken, robotsAllow } from '../../src/fetch/robots.js';
import { createUndiciFetcher } from '../../src/fetch/undici-fetcher.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type PageRoute, type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { failure, localFetcher, UA } from './helpers.js';

const HOUR = 3_600_000;
const robotsTxt = (body: string, headers: Record<string, string> = {}): PageRoute => ({
  headers: { 'content-type': 'text/plain', ...headers },
  body,
});

describe('robots.txt', () => {
  let server: PageServer;
  const fetcher = localFetcher();
  let clock: ManualClock;
  let loader: ReturnType<typeof createPageLoader>;
  const robotsRequests = () => server.requests.filter((r) => r.path.startsWith('/robots.txt')).length;
  const pageRequests = (path: string) => server.requests.filter((r) => r.path === path).length;

  beforeAll(async () => {
    server = await startPageServer({
      '/public': { body: '<p>public</p>' },
      '/private/page': { body: '<p>private</p>' },
      '/real-robots.txt': robotsTxt('User-agent: *\nDisallow: /private\n'),
    });
  });
  afterAll(async () => {
    await fetcher.close?.();
    await server.close();
  });
  beforeEach(() => {
    // A fresh loader per test: its robots cache starts empty.
    clock = new ManualClock();
    loader = createPageLoader({ fetcher, clock, userAgent: UA });
  });

  it('a disallowed URL is never requested; an allowed one loads', async () => {
    server.route('/robots.txt', robotsTxt('User-agent: *\nDisallow: /private\n'));
    const before = pageRequests('/private/page');
    const err = await failure(loader.load(server.url('/private/page')));
    expect(err.type).toBe('robots_disallowed');
    expect(err.statusCode).toBe(0);
    expect(pageRequests('/private/page')).toBe(before);
    expect((await loader.load(server.url('/public'))).status).toBe(200);
  });

  it('matches the group of the product token (first word of the user agent, case-insensitive)', async () => {
    expect(productToken(UA)).toBe('websift-test');
    server.route('/robots.txt', robotsTxt('User-agent: WebSift-Test\nDisallow: /\n\nUser-agent: *\nAllow: /\n'));
    expect((await failure(loader.load(server.url('/public')))).type).toBe('robots_disallowed');
    const other = createPageLoader({ fetcher, clock, userAgent: 'otherbot/2.0' });
    expect((await other.load(server.url('/public'))).status).toBe(200);
  });

  it.each([404, 401, 403, 410])('robots.txt answering %i allows everything', async (status) => {
    server.route('/robots.txt', { status, body: 'nope' });
    expect((await loader.load(server.url('/private/page'))).status).toBe(200);
  });

  it.each([500, 503, 429])('robots.txt answering %i disallows everything', async (status) => {
    server.route('/robots.txt', { status, body: 'down' });
    const before = pageRequests('/public');
    const err = await failure(loader.load(server.url('/public')));
    expect(err.type).toBe('robots_disallowed');
    expect(err.message).toContain(String(status));
    expect(pageRequests('/public')).toBe(before);
  });

  it('an unreachable robots.txt disallows everything', async () => {
    server.route('/robots.txt', (req) => void req.socket.destroy());
    expect((await failure(loader.load(server.url('/public')))).type).toBe('robots_disallowed');
  });

  it('a refused connection is a network failure, not a robots verdict, and is not remembered', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise((r) => closed.close(r));
    const url = `http://127.0.0.1:${port}/public`;
    const err = await failure(loader.load(url));
    expect(err.type).toBe('network');
    // The host comes back a moment later: its robots.txt is asked for again, not a remembered ban.
    const revived = createServer((req, res) => {
      if (req.url === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>up</p>');
    });
    await new Promise<void>((r) => revived.listen(port, '127.0.0.1', r));
    try {
      expect((await loader.load(url)).status).toBe(200);
    } finally {
      revived.closeAllConnections();
      await new Promise((r) => revived.close(r));
    }
  });

  it('a host that does not resolve is a network failure, not a robots verdict', async () => {
    const err = await failure(loader.load('http://robots-test.invalid/public'));
    expect(err.type).toBe('network');
  });

  it('is cached per origin for 24 h on the clock, then fetched again', async () => {
    server.route('/robots.txt', robotsTxt('User-agent: *\nDisallow: /private\n'));
    const before = robotsRequests();
    await loader.load(server.url('/public'));
    await failure(loader.load(server.url('/private/page')));
    expect(robotsRequests() - before).toBe(1);
    server.route('/robots.txt', robotsTxt('User-agent: *\nAllow: /\n'));
    await clock.advance(23 * HOUR);
    expect((await failure(loader.load(server.url('/private/page')))).type).toBe('robots_disallowed');
    expect(robotsRequests() - before).toBe(1);
    await clock.advance(HOUR + 1);
    expect((await loader.load(server.url('/private/page'))).status).toBe(200);
    expect(robotsRequests() - before).toBe(2);
  });

  it('honours a shorter Cache-Control max-age', async () => {
    server.route('/robots.txt', robotsTxt('User-agent: *\nDisallow: /private\n', { 'cache-control': 'public, max-age=120' }));
    const before = robotsRequests();
    await loader.load(server.url('/public'));
    await clock.advance(119_000);
    await loader.load(server.url('/public'));
    expect(robotsRequests() - before).toBe(1);
    await clock.advance(2_000);
    await loader.load(server.url('/public'));
    expect(robotsRequests() - before).toBe(2);
  });

  it('keeps a server-error answer for 10 minutes only', async () => {
    server.route('/robots.txt', { status: 503, body: 'down' });
    await failure(loader.load(server.url('/public')));
    server.route('/robots.txt', robotsTxt('User-agent: *\nAllow: /\n'));
    await clock.advance(9 * 60_000);
    expect((await failure(loader.load(server.url('/public')))).type).toBe('robots_disallowed');
    await clock.advance(60_001);
    expect((await loader.load(server.url('/public'))).status).toBe(200);
  });

  it('parses only the first 500 KiB', async () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(520);
    server.route('/robots.txt', robotsTxt(`User-agent: *\nDisallow: /private\n${filler}Disallow: /public\n`));
    expect((await loader.load(server.url('/public'))).status).toBe(200);
    expect((await failure(loader.load(server.url('/private/page')))).type).toBe('robots_disallowed');
  });

  it('follows robots.txt redirects; more than 5 means unavailable (allow all)', async () => {
    server.route('/robots.txt', { status: 301, headers: { location: '/real-robots.txt' } });
    expect((await failure(loader.load(server.url('/private/page')))).type).toBe('robots_disallowed');
    // An endless chain /robots.txt → ?n=1 → ?n=2 …: the 6th redirect is not followed.
    server.route('/robots.txt', (req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? 0);
      res.writeHead(302, { location: `/robots.txt?n=${n + 1}` }).end();
    });
    const before = robotsRequests();
    const fresh = createPageLoader({ fetcher, clock, userAgent: UA });
    expect((await fresh.load(server.url('/private/page'))).status).toBe(200);
    expect(robotsRequests() - before).toBe(6);
  });

  it('concurrent loads of one origin share one robots.txt fetch', async () => {
    server.route('/robots.txt', robotsTxt('User-agent: *\nDisallow: /private\n'));
    const before = robotsRequests();
    await Promise.all([1, 2, 3, 4].map(() => loader.load(server.url('/public'))));
    expect(robotsRequests() - before).toBe(1);
  });

  it('robots: false never asks for robots.txt', async () => {
    server.route('/robots.txt', robotsTxt('User-agent: *\nDisallow: /\n'));
    const before = robotsRequests();
    const ignoring = createPageLoader({ fetcher, clock, userAgent: UA, robots: false });
    expect((await ignoring.load(server.url('/private/page'))).status).toBe(200);
    expect(robotsRequests()).toBe(before);
  });

  it('a refused origin is blocked_address, not a robots verdict', async () => {
    const guarded = createUndiciFetcher({ userAgent: UA });
    const strict = createPageLoader({ fetcher: guarded, clock, userAgent: UA });
    const before = server.requests.length;
    expect((await failure(strict.load(server.url('/public')))).type).toBe('blocked_address');
    expect(server.requests.length).toBe(before);
    await guarded.close?.();
  });

  it('an undefined answer from robots-parser (URL of another origin) counts as disallowed', () => {
    const parse = robotsParserModule as unknown as (url: string, text: string) => { isAllowed(u: string, a: string): boolean | undefined };
    const robot = parse('http://a.test/robots.txt', 'User-agent: *\nAllow: /\n');
    expect(robot.isAllowed('http://b.test/x', 'bot')).toBeUndefined();
    expect(robotsAllow({ kind: 'parsed', robot }, new URL('http://b.test/x'), 'bot')).toBe(false);
    expect(robotsAllow({ kind: 'parsed', robot }, new URL('http://a.test:80/x'), 'bot')).toBe(true);
  });
});
