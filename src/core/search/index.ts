// engine.search: the request's validation, query parsing and sameness, the router's outcomes turned
// into an answer, confirmed empties and their cache.

export { isNoResults } from './answer.js';
export type { ConfirmedEmpty } from './empty-cache.js';
export { ConfirmedEmptyCache } from './empty-cache.js';
export { parseSearchParams, requireObjectBody } from './params.js';
export type { Admission, ContentFetcher, SearchDeps, SearchSnapshot } from './search.js';
export { runSearch } from './search.js';
