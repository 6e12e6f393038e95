// The pool's share per organization, with real workers: the backlog bound at its default, and a
// page's time counted from when it starts on a worker, not from when it joined the queue.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ConversionPool, createConversionPool, DEFAULT_CONVERSION_BACKLOG } from '../../src/conversion/conversion-pool.js';
import { isFetchFailure } from '../../src/ports/fetcher.js';

const doc = (text: string) => ({ mimeType: 'text/html', text, finalUrl: 'https://example.com/page' });
const never = () => new AbortController().signal;
const small = '<html><body><article><h1>Pool</h1><p>A short page, converted in a worker thread of the pool.</p></article></body></html>';
/** 49,000 table cells: seconds of conversion. */
const slow = `<html><body><main><table>${('<tr>' + '<td>1'.repeat(7)).repeat(7_000)}</table></main></body></html>`;

let pool: ConversionPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('conversion pool, per organization', () => {
  it('refuses an organization’s page past its default backlog as overloaded, and converts another organization’s', async () => {
    pool = createConversionPool();
    const p = pool;
    const held = Array.from({ length: DEFAULT_CONVERSION_BACKLOG }, () => p.convertPage(doc(small), { signal: never(), org: 'a' }));
    const refused = await p.convertPage(doc(small), { signal: never(), org: 'a' }).catch((e: unknown) => e);
    expect(isFetchFailure(refused) && refused.type).toBe('overloaded');
    expect((refused as Error).message).toMatch(/already has 50 pages waiting for or in conversion; retry/);
    expect((await p.convertPage(doc(small), { signal: never(), org: 'b' })).markdown).toContain('Pool');
    // The held pages all convert: refusing one page costs the others nothing.
    expect((await Promise.all(held)).every((page) => page.markdown.includes('Pool'))).toBe(true);
    // With its backlog drained the organization converts again.
    expect((await p.convertPage(doc(small), { signal: never(), org: 'a' })).markdown).toContain('Pool');
  }, 120_000);

  it('counts a page’s budget from when it starts on a worker, not while it waits for one', async () => {
    pool = createConversionPool({ threads: 1 });
    const p = pool;
    await p.convert(doc(small), never()); // the worker's start-up is not part of the test
    // Real time is not the rule here: the budget's timer is faked, and time passes only while the page
    // waits. So a budget counted from the queue fires; one counted from the worker never can (the load
    // of the machine does not matter).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const busy = p.convertPage(doc(slow), { signal: never(), org: 'a' });
      // The same organization: it gets no spare worker, so it waits behind the slow page.
      const waiting = p.convertPage(doc(small), { signal: never(), org: 'a', budgetMs: 1_000 });
      expect(p.stats()).toMatchObject({ queued: 1, converting: 1 });
      vi.advanceTimersByTime(60_000); // a minute of waiting, sixty times its budget
      expect((await waiting).markdown).toContain('Pool');
      await busy;
    } finally {
      vi.useRealTimers();
    }
  }, 120_000);

  it('fails a page that waits longer than its wait limit as a timeout, saying so', async () => {
    pool = createConversionPool({ threads: 1 });
    const busy = pool.convertPage(doc(slow), { signal: never(), org: 'a' });
    const failure = await pool.convertPage(doc(small), { signal: never(), org: 'a', waitMs: 200 }).catch((e: unknown) => e);
    expect((failure as Error).name).toBe('TimeoutError');
    expect((failure as Error).message).toMatch(/waited longer than 200 ms for a conversion worker/);
    await busy;
  }, 120_000);

  it('cuts a page that runs past its budget as a timeout and goes on converting', async () => {
    pool = createConversionPool({ threads: 1 });
    const failure = await pool.convertPage(doc(slow), { signal: never(), org: 'a', budgetMs: 300 }).catch((e: unknown) => e);
    expect((failure as Error).name).toBe('TimeoutError');
    expect((failure as Error).message).toMatch(/longer than 300 ms to convert/);
    expect((await pool.convertPage(doc(small), { signal: never(), org: 'a' })).markdown).toContain('Pool');
  }, 120_000);

  it('a page aborted while queued leaves the queue without taking a worker', async () => {
    pool = createConversionPool({ threads: 1 });
    const busy = pool.convertPage(doc(slow), { signal: never(), org: 'a' });
    const controller = new AbortController();
    const queued = pool.convertPage(doc(small), { signal: controller.signal, org: 'a' });
    controller.abort(new Error('caller left'));
    await expect(queued).rejects.toThrow('caller left');
    const threads = pool.threadIds;
    await busy;
    // The worker converting the slow page was not the one terminated by the abort.
    expect(pool.threadIds).toEqual(threads);
  }, 120_000);
});
