// One conformance suite that every SearchSource in websift/sources passes (unstorage's testDriver idea).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchSource } from '../../src/types/index.js';
import { ctx, q, rejection } from './helpers.js';

export interface ConformanceSubject {
  source: SearchSource;
  /** A query the source answers with at least three results. */
  resultsQuery: string;
  /** A query the source answers with an explicit no-results notice. */
  emptyQuery: string;
  /** A query on which the source hangs until aborted (omit when the source can't hang). */
  hangQuery?: string;
  /** Resolves once the hanging request has reached the provider. */
  hangStarted?: () => Promise<void>;
  close(): Promise<void>;
}

export function describeSourceConformance(name: string, setup: () => Promise<ConformanceSubject>): void {
  describe(`SearchSource conformance: ${name}`, () => {
    let s: ConformanceSubject;
    beforeAll(async () => {
      s = await setup();
    });
    afterAll(async () => {
      await s?.close();
    });

    it('has a non-empty id', () => {
      expect(typeof s.source.id).toBe('string');
      expect(s.source.id.length).toBeGreaterThan(0);
    });

    it('answers with title/url/snippet strings and absolute http(s) URLs, without a notice', async () => {
      const answer = await s.source.search(q(s.resultsQuery), ctx(10));
      expect(answer.results.length).toBeGreaterThanOrEqual(3);
      expect(answer.noResultsNotice).not.toBe(true);
      for (const r of answer.results) {
        expect(Object.keys(r).sort()).toEqual(['snippet', 'title', 'url']);
        expect(typeof r.title).toBe('string');
        expect(r.title.length).toBeGreaterThan(0);
        expect(typeof r.snippet).toBe('string');
        expect(['http:', 'https:']).toContain(new URL(r.url).protocol);
      }
    });

    it('returns at most ctx.limit results', async () => {
      for (const limit of [1, 2]) {
        const answer = await s.source.search(q(s.resultsQuery), ctx(limit));
        expect(answer.results.length).toBe(limit);
      }
    });

    it('states "no results" with noResultsNotice: true and an empty list', async () => {
      const answer = await s.source.search(q(s.emptyQuery), ctx(10));
      expect(answer).toEqual({ results: [], noResultsNotice: true });
    });

    it('drops results of a -site: host', async () => {
      const first = (await s.source.search(q(s.resultsQuery), ctx(10))).results[0]!;
      const host = new URL(first.url).hostname;
      const answer = await s.source.search(q(`${s.resultsQuery} -site:${host}`), ctx(10));
      for (const r of answer.results) expect(new URL(r.url).hostname).not.toBe(host);
      expect(answer.noResultsNotice).not.toBe(true);
    });

    it('rejects with the reason of an already aborted signal', async () => {
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      controller.abort(reason);
      expect(await rejection(s.source.search(q(s.resultsQuery), ctx(10, controller.signal)))).toBe(reason);
    });

    it('rejects a limit that is not a positive integer with a clear error', async () => {
      for (const limit of [0, -1, 1.5, Number.NaN]) {
        const error = await rejection(s.source.search(q(s.resultsQuery), ctx(limit)));
        expect(error).toBeInstanceOf(RangeError);
        expect(String(error)).toMatch(/limit/);
      }
    });

    it('rejects promptly when the signal aborts mid-request', async (t) => {
      if (!s.hangQuery) return t.skip();
      const controller = new AbortController();
      const pending = s.source.search(q(s.hangQuery), ctx(10, controller.signal));
      await s.hangStarted?.();
      const reason = new Error('deadline');
      controller.abort(reason);
      expect(await rejection(pending)).toBe(reason);
    });
  });
}
