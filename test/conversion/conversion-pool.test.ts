// The conversion pool on its own: real worker threads, real hostile pages. A conversion nobody waits
// for is stopped (its worker terminated), a page over the heap limit fails alone as too_large, and
// the pool goes on converting.

import { afterEach, describe, expect, it } from 'vitest';
import { articleOfSize, hostilePage } from '../../bench/lib/hostile-pages.js';
import { type ConversionPool, createConversionPool } from '../../src/conversion/conversion-pool.js';
import { htmlToMarkdown } from '../../src/index.js';
import { pagePart } from '../../src/passages/index.js';
import { isFetchFailure } from '../../src/ports/fetcher.js';

const doc = (text: string) => ({ mimeType: 'text/html', text, finalUrl: 'https://example.com/page' });
const never = () => new AbortController().signal;
const small = '<html><body><article><h1>Pool</h1><p>A short page, converted in a worker thread of the pool.</p></article></body></html>';

let pool: ConversionPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('conversion pool', () => {
  it('converts exactly as htmlToMarkdown does, off the calling thread', async () => {
    pool = createConversionPool({ threads: 1 });
    expect(await pool.convert(doc(small), never())).toBe(htmlToMarkdown(small, { url: 'https://example.com/page' }));
    expect(await pool.convert({ mimeType: 'application/json', text: '{"a":1}', finalUrl: 'https://x.test/' }, never())).toContain('a');
  });

  it("cuts a page's part (query passages) on a worker exactly as pagePart does on the host", async () => {
    pool = createConversionPool({ threads: 1 });
    const content = Array.from(
      { length: 200 },
      (_, i) => `## Part ${i}\n\n${i === 150 ? 'The lighthouse lens throws its beam.' : 'Filler words of no interest here.'}`,
    ).join('\n\n');
    for (const options of [
      { query: 'lighthouse lens', maxChars: 300 },
      { maxChars: 500, startChar: 40 },
    ]) {
      const task = { content, format: 'markdown' as const, options };
      expect(await pool.part(task, { signal: never(), org: 'acme' })).toEqual(pagePart(content, 'markdown', options));
    }
  });

  it('an abort mid-conversion rejects with the reason and terminates the worker converting', async () => {
    pool = createConversionPool({ threads: 1 });
    await pool.convert(doc(small), never());
    const [worker] = pool.threadIds;
    const controller = new AbortController();
    const page = articleOfSize(10 * 1024 * 1024); // seconds of work
    const converting = pool.convert(doc(page), controller.signal);
    setTimeout(() => controller.abort(new Error('gone')), 50);
    await expect(converting).rejects.toThrow('gone');
    expect(pool.threadIds).not.toContain(worker);
    // The pool goes on with a new worker.
    expect(await pool.convert(doc(small), never())).toContain('Pool');
  });

  it('a page over the heap limit fails alone as too_large, saying why, and the next page converts', async () => {
    pool = createConversionPool({ threads: 1, memoryMb: 32 });
    const page = articleOfSize(10 * 1024 * 1024);
    const failure = await pool.convert(doc(page), never()).catch((e: unknown) => e);
    expect(isFetchFailure(failure) && failure.type).toBe('too_large');
    expect((failure as Error).message).toMatch(/32 MiB of memory/);
    expect(await pool.convert(doc(small), never())).toContain('Pool');
  });

  it('a page the converter chokes on still gives its text, and close is idempotent', async () => {
    pool = createConversionPool({ threads: 1 });
    const page = hostilePage('cdata-nested', 30_000);
    const text = await pool.convert(doc(page), never());
    expect(text).toContain('Start of the page');
    await pool.close();
    await pool.close();
    await expect(pool.convert(doc(small), never())).rejects.toThrow(/closed/);
  });

  it('refuses nonsense sizes at construction', () => {
    expect(() => createConversionPool({ threads: 0 })).toThrow(RangeError);
    expect(() => createConversionPool({ memoryMb: 1 })).toThrow(RangeError);
  });
});
