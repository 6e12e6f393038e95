// Small helpers shared by the source tests.

import { parseQuery } from '../../src/core/search/query.js';
import type { SearchQuery, SourceContext } from '../../src/types/index.js';

export const q = (text: string): SearchQuery => parseQuery(text);

export const ctx = (limit = 10, signal: AbortSignal = new AbortController().signal): SourceContext => ({ signal, limit });

/** The rejection of a promise (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}
