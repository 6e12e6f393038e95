// Seeded randomized run: thousands of mixed operations across organizations and sources
// (successes, empties, failures, hangs, clock jumps, concurrent bursts, grants, rate limits).
// After every step each balance must equal its grants minus the credits_used it was told, and no
// error outcome may have charged anything.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContentFetcher } from '../../src/core/search/search.js';
import { isWebsiftError } from '../../src/errors.js';
import { createEngine } from '../../src/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type ScriptedAnswer, scriptedSource } from '../../src/testing/scripted-source.js';
import { seededRandom as mulberry32 } from '../../src/testing/seeded-random.js';
import type { EmptySearchResponse, SearchResponse } from '../../src/types/index.js';
import { drive, hits, notice, silentEmpty } from './helpers.js';

const QUERIES = [
  'rust async',
  'nothing at all',
  'site:example.com docs',
  'words -site:spam.com',
  '"one phrase" "two phrase"',
  'filetype:pdf "manual"',
  'weather',
  'obscure thing',
  '"quoted" term',
  'Rust Async',
  'x',
];

const dir = mkdtempSync(join(tmpdir(), 'websift-random-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([1, 2, 3])('seeded run %i', (seed) => {
  it('balances always equal grants minus reported credits; errors never charge', async () => {
    const rand = mulberry32(seed * 7919);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const clock = new ManualClock();
    let outage = false; // every source down: the 503 path
    const behaviour = (): ScriptedAnswer => {
      if (outage) return { fail: 'outage' };
      const r = rand();
      if (r < 0.3) return hits(1 + Math.floor(rand() * 12));
      if (r < 0.7) return notice;
      if (r < 0.8) return silentEmpty;
      if (r < 0.95) return { fail: 'HTTP 500' };
      return { hang: true };
    };
    const sources = ['a', 'b', 'c', 'd'].map((id, i) =>
      scriptedSource(id, () => behaviour(), { unreliableEmpties: i === 3, latencyMs: () => Math.floor(rand() * 50), clock }),
    );
    const contentFetcher: ContentFetcher = async (results, count) => {
      const requested = Math.min(count, results.length);
      const delivered = Math.floor(rand() * (requested + 1));
      const items = results.map((r, i) =>
        i >= requested ? r : i < delivered ? { ...r, content: 'text' } : { ...r, content_error: 'timeout' as const },
      );
      return { items, requested, delivered };
    };
    const engine = createEngine({
      database: join(dir, `run-${seed}.db`),
      clock,
      sources,
      contentFetcher,
      rateLimit: { limit: 6, window: 3 },
      router: { random: rand, retries: 1, backoffMs: 50, attemptTimeoutMs: 1000, deadlineMs: 4000 },
    });

    const orgs = ['acme', 'globex', 'initech'];
    const grants = new Map<string, number>();
    const told = new Map<string, number>();
    const answered = new Map<string, { requests: number; free: number }>();
    for (const org of orgs) {
      const credits = Math.floor(rand() * 40);
      await engine.admin.createOrganization(org, { credits });
      grants.set(org, credits);
      told.set(org, 0);
      answered.set(org, { requests: 0, free: 0 });
    }
    const balances = async () => new Map((await engine.admin.listOrganizations()).map((o) => [o.id, o]));
    const counts = { ok: 0, empty: 0, 503: 0, 402: 0, 429: 0, 400: 0 } as Record<string, number>;

    const searchOnce = async (org: string) => {
      const includeContent = rand() < 0.25;
      const params = {
        q: pick(QUERIES),
        ...(includeContent ? { include_content: true, content_results: 1 + Math.floor(rand() * 10) } : {}),
      };
      if (rand() < 0.02) (params as Record<string, unknown>).q = ''; // a 400 now and then
      try {
        const r = (await engine.search(params, { organization: org })) as SearchResponse | EmptySearchResponse;
        const m = r.metadata;
        told.set(org, told.get(org)! + m.credits_used);
        const a = answered.get(org)!;
        a.requests++;
        if (m.credits_used === 0) a.free++;
        if (m.status === 'no_results') {
          counts.empty!++;
          expect((r as EmptySearchResponse).message).toBe(m.message);
          expect(m.charged).toBe(m.credits_used > 0);
          expect(m.credits_used).toBeLessThanOrEqual(1);
          if (!m.no_results_verified) expect(m.credits_used).toBe(0);
        } else {
          counts.ok!++;
          expect('charged' in m || 'no_results_verified' in m).toBe(false);
          for (const item of r.results) expect(item.content !== undefined && item.content_error !== undefined).toBe(false);
          if (!includeContent) expect(m.credits_used).toBeLessThanOrEqual(1);
        }
      } catch (error) {
        if (!isWebsiftError(error)) throw error;
        counts[error.status] = (counts[error.status] ?? 0) + 1;
        if (error.status === 503) {
          const a = answered.get(org)!;
          a.requests++;
          a.free++;
        }
        return error.status;
      }
      return 200;
    };

    for (let step = 0; step < 1200; step++) {
      const before = await balances();
      const r = rand();
      outage = rand() < 0.05;
      const touched: { org: string; status: number }[] = [];
      if (r < 0.08) {
        await clock.advance(Math.floor(rand() * 20 * 60_000));
      } else if (r < 0.12) {
        const org = pick(orgs);
        const add = Math.floor(rand() * 10);
        await engine.admin.addCredits(org, add);
        grants.set(org, grants.get(org)! + add);
      } else if (r < 0.2) {
        const burst = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(orgs));
        const statuses = await drive(clock, Promise.all(burst.map((org) => searchOnce(org))));
        burst.forEach((org, i) => touched.push({ org, status: statuses[i]! }));
      } else {
        const org = pick(orgs);
        touched.push({ org, status: await drive(clock, searchOnce(org)) });
      }
      const after = await balances();
      for (const org of orgs) {
        const o = after.get(org)!;
        expect(o.balance, `step ${step} ${org}`).toBe(grants.get(org)! - told.get(org)!);
        expect(o.used).toBe(told.get(org)!);
        expect(o.balance).toBeGreaterThanOrEqual(0);
      }
      // An organization whose every request this step failed was charged nothing.
      for (const org of orgs) {
        const mine = touched.filter((t) => t.org === org);
        if (mine.length > 0 && mine.every((t) => t.status !== 200)) {
          expect(after.get(org)!.used).toBe(before.get(org)!.used);
        }
      }
    }

    await clock.advance(60_000);
    for (const org of orgs) {
      const usage = await engine.usage({ organization: org });
      const a = answered.get(org)!;
      expect(usage.requests).toEqual({ search: a.requests, extract: 0, total: a.requests, free: a.free });
    }
    // The run exercised every outcome.
    for (const status of ['ok', 'empty', '503', '402', '429', '400']) expect(counts[status], status).toBeGreaterThan(0);
    await engine.close();
  }, 60_000);
});
