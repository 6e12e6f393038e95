// Browser lifecycle: lazy launch, bounded concurrency, relaunch after a crash, no growth over many
// renders, and nothing left running after close(). Process accounting reads /proc.

import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchFailure } from '../../src/ports/fetcher.js';
import { createPlaywrightRenderer } from '../../src/render/index.js';
import { type Served, serve } from './fixture-server.js';
import { CHROMIUM, chromiumProcesses, chromiumRssKb, hasChromium } from './processes.js';

const opts = () => ({ signal: new AbortController().signal, maxBytes: 10 * 1024 * 1024 });

/** Polls `check` (real time: we are waiting on other processes) until it holds or `ms` pass. */
async function eventually(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** The browser's main process: the Chromium process whose parent is this test process. */
const browserMain = () => chromiumProcesses().find((p) => p.ppid === process.pid);

describe.skipIf(!hasChromium)('stealth renderer lifecycle', () => {
  let site: Served;
  let inFlight = 0;
  let maxInFlight = 0;
  const held: http.ServerResponse[] = [];

  beforeAll(async () => {
    site = await serve((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/hold-forever') return void held.push(res.writeHead(200, { 'content-type': 'text/html' }));
      // /held pages are held 800 ms so renders that run together overlap on the server too.
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(
        () => {
          inFlight--;
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><p>page ${req.url}</p></body></html>`);
        },
        req.url?.startsWith('/held') ? 800 : 0,
      );
    });
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    await site.close();
  });

  it('launches lazily and renders at most `concurrency` pages at once', async () => {
    const before = chromiumProcesses().length;
    const renderer = createPlaywrightRenderer({
      executablePath: CHROMIUM,
      allowEndpoints: [`127.0.0.1:${site.port}`],
      concurrency: 2,
      settleMs: 50,
    });
    try {
      expect(chromiumProcesses().length).toBe(before); // nothing started by construction
      maxInFlight = 0;
      const pages = await Promise.all([1, 2, 3, 4, 5].map((i) => renderer.render(`${site.origin}/held/${i}`, opts())));
      expect(pages.map((p) => p.html.includes(`page /held/`))).toEqual([true, true, true, true, true]);
      expect(maxInFlight).toBeLessThanOrEqual(2); // the bound
      expect(maxInFlight).toBe(2); // and it is used
      expect(renderer.launches).toBe(1); // one browser for all of them
    } finally {
      await renderer.close();
    }
  });

  it('relaunches a crashed browser on the next request, and fails the render it was doing', async () => {
    const renderer = createPlaywrightRenderer({ executablePath: CHROMIUM, allowEndpoints: [`127.0.0.1:${site.port}`], settleMs: 50 });
    try {
      await renderer.render(`${site.origin}/first`, opts());
      const pending = renderer.render(`${site.origin}/hold-forever`, opts());
      expect(await eventually(() => held.length > 0)).toBe(true);
      const main = browserMain();
      expect(main).toBeDefined();
      process.kill(main!.pid, 'SIGKILL');
      const failure = await pending.then(
        () => null,
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(FetchFailure);
      expect((failure as FetchFailure).type).toBe('network');
      const page = await renderer.render(`${site.origin}/after-crash`, opts());
      expect(page.html).toContain('page /after-crash');
      expect(renderer.launches).toBe(2);
    } finally {
      await renderer.close();
    }
  });

  it('50 renders in a row do not grow the number of browser processes or their memory without bound', async () => {
    const renderer = createPlaywrightRenderer({
      executablePath: CHROMIUM,
      allowEndpoints: [`127.0.0.1:${site.port}`],
      concurrency: 2,
      settleMs: 20,
    });
    try {
      const batch = async (from: number, count: number) => {
        for (let i = from; i < from + count; i += 2) {
          await Promise.all([renderer.render(`${site.origin}/n/${i}`, opts()), renderer.render(`${site.origin}/n/${i + 1}`, opts())]);
        }
      };
      await batch(0, 10);
      await new Promise((r) => setTimeout(r, 300));
      const warmProcs = chromiumProcesses().length;
      const warmRss = chromiumRssKb();
      await batch(10, 40);
      await new Promise((r) => setTimeout(r, 300));
      const procs = chromiumProcesses().length;
      const rss = chromiumRssKb();
      console.log(
        `[render] after 10: ${warmProcs} processes, ${Math.round(warmRss / 1024)} MiB; after 50: ${procs} processes, ${Math.round(rss / 1024)} MiB`,
      );
      // Closed contexts take their renderer processes with them: the count stays where it was.
      expect(procs).toBeLessThanOrEqual(warmProcs + 2);
      expect(rss).toBeLessThan(warmRss * 1.5 + 100 * 1024);
      expect(renderer.launches).toBe(1);
    } finally {
      await renderer.close();
    }
  }, 120_000);

  it('close() leaves no Chromium process behind', async () => {
    const renderer = createPlaywrightRenderer({ executablePath: CHROMIUM, allowEndpoints: [`127.0.0.1:${site.port}`], settleMs: 20 });
    await renderer.render(`${site.origin}/before-close`, opts());
    expect(chromiumProcesses().length).toBeGreaterThan(0);
    await renderer.close();
    expect(await eventually(() => chromiumProcesses().length === 0, 3000)).toBe(true);
    await expect(renderer.render(`${site.origin}/after-close`, opts())).rejects.toThrow(/closed/);
  });
});
