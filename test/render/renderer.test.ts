// The stealth renderer against loopback pages, with the real system Chromium.
// Skipped (with a message saying how to enable them) where /usr/bin/chromium is not installed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/system-clock.js';
import { decodeBody } from '../../src/fetch/charset.js';
import type { LookupFunction } from '../../src/fetch/guarded-connector.js';
import { createPageLoader } from '../../src/fetch/load-page.js';
import { createUndiciFetcher } from '../../src/fetch/undici-fetcher.js';
import { FetchFailure } from '../../src/ports/fetcher.js';
import { createPlaywrightRenderer, type PlaywrightRenderer } from '../../src/render/index.js';
import { ARTICLE_TEXT, pages, type Served, serve } from './fixture-server.js';
import { CHROMIUM, hasChromium } from './processes.js';

const MiB = 1024 * 1024;
const opts = (maxBytes = 10 * MiB, signal = new AbortController().signal) => ({ signal, maxBytes });

async function failureOf(promise: Promise<unknown>): Promise<FetchFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchFailure);
    return error as FetchFailure;
  }
  throw new Error('expected a FetchFailure');
}

describe.skipIf(!hasChromium)(`stealth renderer with ${CHROMIUM}`, () => {
  let site: Served;
  let other: Served;
  let slowRobots: Served; // an allowed origin whose robots.txt (disallow all) takes 700 ms to arrive
  let renderer: PlaywrightRenderer;
  const blocked: string[] = [];

  beforeAll(async () => {
    other = await serve((_req, res) => res.end('other'));
    slowRobots = await serve((req, res) => {
      if (req.url !== '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>forbidden content</p>');
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /\n'), 700);
    });
    site = await serve(
      pages(
        () => other.origin,
        () => slowRobots.origin,
      ),
    );
    renderer = createPlaywrightRenderer({
      executablePath: CHROMIUM,
      allowEndpoints: [`127.0.0.1:${site.port}`, `127.0.0.1:${slowRobots.port}`],
      settleMs: 150,
      maxSettleMs: 1500,
      onBlocked: (target, why) => blocked.push(`${target} ${why}`),
    });
  });
  afterAll(async () => {
    await renderer.close();
    await site.close();
    await other.close();
    await slowRobots.close();
  });

  it('gets the article a script inserts after load, which a plain fetch does not see', async () => {
    const loader = createPageLoader({
      fetcher: createUndiciFetcher({ allowEndpoints: [`127.0.0.1:${site.port}`] }),
      clock: systemClock,
      userAgent: 'websift/0.1',
    });
    const plain = await loader.load(`${site.origin}/js-article`);
    expect(decodeBody(plain.body, plain.contentType).text).not.toContain(ARTICLE_TEXT);

    const page = await renderer.render(`${site.origin}/js-article`, opts());
    expect(page).toMatchObject({ url: `${site.origin}/js-article`, status: 200, contentType: 'text/html' });
    expect(page.html).toContain(`<article><h1>Winter at the reef</h1><p>${ARTICLE_TEXT}</p></article>`);
  }, 60_000); // the first render starts Chromium: 8 s alone, over 20 s beside a full test run

  it('blocks every way a page tries to reach another loopback port or the metadata address', async () => {
    const page = await renderer.render(`${site.origin}/leaky`, opts());
    expect(page.status).toBe(200);
    // fetch, no-cors fetch, redirect, stylesheet, script, iframe, beacon, worker, preconnect: none arrived.
    expect(other.requests).toEqual([]);
    expect(other.connections).toBe(0);
    expect(blocked.some((b) => b.startsWith(`127.0.0.1:${other.port}`))).toBe(true);
    expect(blocked.some((b) => b.startsWith('169.254.169.254:80') && /link-local/.test(b))).toBe(true);
    const out = /data-out="([^"]*)"/.exec(page.html)?.[1] ?? '';
    expect(out).toContain('other-fetch-failed');
    expect(out).toContain('redirect-failed');
    expect(out).toContain('rtc-undefined'); // WebRTC removed
    expect(out).toContain('own-ws-1008'); // WebSockets refused, even to the page's own origin
    expect(site.requests).not.toContain('/ws');
    expect(site.requests).not.toContain('/sw.js'); // service workers are never registered
    // Images are not requested at all, not even same-origin ones.
    expect(site.requests).not.toContain('/local.png');
  });

  it('a main document redirected to a blocked address fails as blocked_address', async () => {
    const failure = await failureOf(renderer.render(`${site.origin}/go-other`, opts()));
    expect(failure.type).toBe('blocked_address');
    expect(other.requests).toEqual([]);
  });

  it('follows up to 5 redirects and refuses a 6th', async () => {
    const page = await renderer.render(`${site.origin}/hop?n=4`, opts());
    expect(page.url).toBe(`${site.origin}/js-article`);
    expect((await failureOf(renderer.render(`${site.origin}/hop?n=6`, opts()))).type).toBe('too_many_redirects');
  });

  it('applies robots.txt to a redirect target of the main document', async () => {
    const failure = await failureOf(renderer.render(`${site.origin}/redirect-to-private`, opts()));
    expect(failure.type).toBe('robots_disallowed');
  });

  it('waits for robots.txt of a redirect target on another origin before returning its content', async () => {
    const failure = await failureOf(renderer.render(`${site.origin}/go-slow-robots`, opts()));
    expect(failure.type).toBe('robots_disallowed');
  });

  it('applies robots.txt to a navigation the page starts itself', async () => {
    const failure = await failureOf(renderer.render(`${site.origin}/js-to-private`, opts()));
    expect(failure.type).toBe('robots_disallowed');
    expect(site.requests).not.toContain('/private/secret');
  });

  it('reports HTTP errors with their status', async () => {
    const failure = await failureOf(renderer.render(`${site.origin}/missing`, opts()));
    expect(failure).toMatchObject({ type: 'http', statusCode: 404, message: 'HTTP 404 Not Found' });
  });

  it('gates types: a binary content type, and binary bytes served as text/html', async () => {
    expect((await failureOf(renderer.render(`${site.origin}/pdf-no-extension`, opts()))).type).toBe('unsupported_content_type');
    const sniffed = await failureOf(renderer.render(`${site.origin}/png-as-html`, opts()));
    // The wording depends on the Chromium build (Debian's transcodes the body: "binary data"); the verdict does not.
    expect(sniffed.type).toBe('unsupported_content_type');
  });

  it('refuses a page announced over the cap on its headers, without waiting for the body', async () => {
    // The body stalls after 12 bytes: only its announced length can make it too large (waiting for it
    // would end at the render timeout instead). An outcome, not a duration.
    const failure = await failureOf(renderer.render(`${site.origin}/huge-declared`, opts()));
    expect(failure.type).toBe('too_large');
  });

  it('applies the cap to the final HTML the scripts produced', async () => {
    const failure = await failureOf(renderer.render(`${site.origin}/grows-in-browser`, opts(200_000)));
    expect(failure.type).toBe('too_large');
    const page = await renderer.render(`${site.origin}/grows-in-browser`, opts(1 * MiB));
    expect(page.html.length).toBeGreaterThan(300_000);
  });

  it('returns a non-HTML text document as itself', async () => {
    const page = await renderer.render(`${site.origin}/json`, opts());
    expect(page).toMatchObject({ contentType: 'application/json', html: '{"answer":42}' });
  });

  it('stops waiting for a network that never settles', async () => {
    // Without the settle wait's cap (maxSettleMs 1500) the render would end at its 20 s timeout, a
    // failure: the page itself is the proof.
    const page = await renderer.render(`${site.origin}/never-settles`, opts());
    expect(page.html).toContain('ticker');
  });

  it('a stalled page ends with timeout when the caller aborts, and the browser stays usable', async () => {
    const failure = await failureOf(renderer.render(`${site.origin}/stalls`, opts(10 * MiB, AbortSignal.timeout(1200))));
    expect(failure.type).toBe('timeout');
    expect((await renderer.render(`${site.origin}/plain`, opts())).html).toContain(ARTICLE_TEXT);
  });

  it('ends a stalled page at the per-URL timeout (timeoutMs)', async () => {
    const quick = createPlaywrightRenderer({ executablePath: CHROMIUM, allowEndpoints: [`127.0.0.1:${site.port}`], timeoutMs: 3000 });
    try {
      // Its 3 s limit, not the 20 s default: a generous budget between the two (load may make the
      // limit late, but not by 12 s), instead of a tight bound.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 15_000)));
      const failure = await Promise.race([failureOf(quick.render(`${site.origin}/stalls`, opts())), late]);
      clearTimeout(timer);
      expect(failure).toMatchObject({ type: 'timeout', message: 'The page did not render within the time limit' });
    } finally {
      await quick.close();
    }
  }, 60_000);

  it('resolves names through the lookup hook and applies the policy to what they resolve to', async () => {
    const lookup: LookupFunction = (_hostname, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
    const named = createPlaywrightRenderer({ executablePath: CHROMIUM, allowEndpoints: [`127.0.0.1:${site.port}`], lookup, settleMs: 100 });
    try {
      const page = await named.render(`http://pages.test:${site.port}/plain`, opts());
      expect(page.url).toBe(`http://pages.test:${site.port}/plain`);
      expect(page.html).toContain(ARTICLE_TEXT);
      expect((await failureOf(named.render(`http://evil.test:${other.port}/`, opts()))).type).toBe('blocked_address');
      expect(other.requests).toEqual([]);
    } finally {
      await named.close();
    }
  });
});
