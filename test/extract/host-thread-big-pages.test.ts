// The host thread stays free with big pages (issue 32): two extracts of ten ~10 MiB ordinary pages
// at once, at the defaults, in the markdown and the html formats. Decoding, the copies to and from the
// workers and the joins of big bodies stay off the event loop or in turns of their own, so no turn of
// the loop holds the host thread for long.
//
// What is asserted is the host thread's own CPU time between two ticks of a 20 ms timer
// (bench/lib/loop-probe.ts): ≤ 100 ms, half the documented 200 ms bound on the loop's lateness
// (docs/operating.md, "The event loop"), the other half being left to waiting for a core on a loaded
// machine, which the wall clock counts too (it is logged, not asserted). Measured: 29–58 ms. The code
// before measured 312 ms in the markdown case (it fails it) and 80–252 ms in the html case (whose
// pages spread out more; bench/host-thread.ts has both formats with four extracts too).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeLoop } from '../../bench/lib/loop-probe.js';
import { ordinaryPage } from '../../bench/lib/ordinary-pages.js';
import { createEngine } from '../../src/index.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import type { Engine } from '../../src/types/index.js';
import { article, html, warmConversion } from './helpers.js';

const PAGES = 10;
const BUSY_BOUND_MS = 100;

/**
 * One page's own host work on this machine: decoding a 10 MiB page and copying the string once (a
 * structured clone, as a message to a worker), CPU ms, median of 5. On the machine the 100 ms bound was set
 * on a turn measured 29–58 ms; on a machine whose memory is 2–3× slower (2026-12-06: this unit 135–150 ms,
 * turns 112–193 ms) the bound is one and a half of these: no turn may hold more than about one page's work
 * (the code before the fix held several: 312 ms where the unit was well under 100).
 */
function pageUnitMs(page: Buffer): number {
  const decoder = new TextDecoder();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const before = process.cpuUsage();
    structuredClone(decoder.decode(page));
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[2]!;
}
let busyBoundMs = BUSY_BOUND_MS;

let server: PageServer;
let engine: Engine;
beforeAll(async () => {
  const routes: Record<string, ReturnType<typeof html>> = { '/small': html(article('Small')) };
  // Encoded once: serving a page costs the test's event loop no encoding.
  for (let i = 0; i < PAGES; i++) routes[`/p${i}`] = { body: Buffer.from(ordinaryPage(10 * 1024 * 1024 - 4096, i), 'utf8') };
  server = await startPageServer(routes);
  busyBoundMs = Math.max(BUSY_BOUND_MS, 1.5 * pageUnitMs((routes['/p0'] as { body: Buffer }).body));
  // The defaults a user ships: 10 MiB pages, 15 s per page, the pool sized from the cores.
  engine = createEngine({ allowPrivateNetwork: true, robots: false, rateLimit: false });
  await engine.admin.createOrganization('acme', { credits: 1000 });
  await warmConversion(engine, server.url('/small'), 'acme');
}, 60_000);
afterAll(async () => {
  await engine.close();
  await server.close();
});

describe('the host thread with ten 10 MiB pages per extract', () => {
  it.each(['markdown', 'html'] as const)(
    "two extracts at once, %s format: no turn holds the host thread for more than 100 ms or about one page's own work",
    async (format) => {
      // Two extracts of the ten pages, their loop watched; a second pair is of other URLs (not a free repeat).
      const run = async (attempt: number) => {
        const figures = await probeLoop(() =>
          Promise.all(
            [0, 1].map((e) =>
              engine.extract(
                { urls: Array.from({ length: PAGES }, (_, i) => server.url(`/p${i}?${format}-${attempt}-${e}`)), format },
                { organization: 'acme' },
              ),
            ),
          ),
        );
        const results = figures.result.flatMap((r) => r.results);
        const { result: _, ...shown } = figures;
        console.log(
          `host thread, ${format}, attempt ${attempt}, bound ${busyBoundMs.toFixed(0)} ms`,
          JSON.stringify(shown),
          results.map((r) => r.error_type ?? 'ok').join(','),
        );
        // The scenario ran: every page was fetched and handed to the workers; those not converted within
        // their 15 s (twenty 10 MiB pages on a 2-core machine) time out, nothing else fails.
        expect(results).toHaveLength(2 * PAGES);
        // …or, past the answer's 32 MiB of content, are left out as `too_large`.
        expect(results.every((r) => r.success || r.error_type === 'timeout' || r.error_type === 'too_large')).toBe(true);
        if (format === 'html') expect(results.find((r) => r.success)?.html?.length).toBeGreaterThan(9 * 1024 * 1024);
        expect(figures.ticks).toBeGreaterThan(20);
        return figures.busyMaxMs;
      };
      // A second run decides when the first is over the bound: with another test file running on the
      // other core (CI), one loop iteration of the first html run read 127 ms in two CI runs (2026-12-07;
      // the second run 74 ms), where alone it reads 32–47 ms. The code this guards against held several
      // pages' work in a turn on every run (312 ms).
      const first = await run(0);
      expect(first <= busyBoundMs ? first : await run(1)).toBeLessThanOrEqual(busyBoundMs);
    },
    120_000,
  );
});
