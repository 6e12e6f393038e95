// Shared setup for the fetch tests: a real page server plus a fetcher/loader allowed to reach it.

import { decodeBody } from '../../src/fetch/charset.js';
import { createPageLoader, type LoadedDocument, type PageLoaderOptions } from '../../src/fetch/load-page.js';
import { createUndiciFetcher, type UndiciFetcherOptions } from '../../src/fetch/undici-fetcher.js';
import { type Fetcher, FetchFailure } from '../../src/ports/fetcher.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

export const MiB = 1024 * 1024;
export const UA = 'websift-test/1.0 (+https://example.test/bot)';

/** A fetcher that may reach loopback (the test server). */
export const localFetcher = (options: UndiciFetcherOptions = {}): Fetcher =>
  createUndiciFetcher({ allowPrivateNetwork: true, userAgent: UA, ...options });

export function localLoader(options: Partial<PageLoaderOptions> & { fetcherOptions?: UndiciFetcherOptions } = {}) {
  const { fetcherOptions, ...rest } = options;
  const fetcher = rest.fetcher ?? localFetcher(fetcherOptions);
  const clock = rest.clock ?? new ManualClock();
  const loader = createPageLoader({ userAgent: UA, robots: false, ...rest, fetcher, clock });
  return { loader, fetcher, clock };
}

/** The FetchFailure a promise rejects with (fails the test if it resolves or throws something else). */
export async function failure(promise: Promise<unknown>): Promise<FetchFailure> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof FetchFailure) return err;
    throw new Error(`expected a FetchFailure, got ${String(err)}`, { cause: err });
  }
  throw new Error('expected a FetchFailure, but the promise resolved');
}

export const signal = (ms = 5000): AbortSignal => AbortSignal.timeout(ms);

/** A loaded document with its text and charset (the loader leaves decoding to its reader). */
export const decoded = <T extends LoadedDocument>(doc: T) => ({ ...doc, ...decodeBody(doc.body, doc.contentType) });
