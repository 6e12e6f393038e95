// Telling the two search answers apart. TypeScript does not narrow an object on a nested field, so
// `r.metadata.status === 'no_results'` narrows only `r.metadata`; this guard narrows `r` itself.

import type { EmptySearchResponse, SearchAnswer } from '../../types/index.js';

/**
 * True for the empty answer (`metadata.status: 'no_results'`, `results: []`, a `message`); false for a
 * success (with `id`, `engines` and results).
 * @example
 * ```ts
 * const r = await engine.search({ q: 'websift' }, { organization: 'acme' });
 * if (isNoResults(r)) console.log(r.message);
 * else console.log(r.id, r.results.length);
 * ```
 */
export function isNoResults(answer: SearchAnswer): answer is EmptySearchResponse {
  return answer.metadata.status === 'no_results';
}
