// websift/sources: the search source factories.
export { localIndex } from './local-index.js';
export type { LocalIndex, LocalIndexOptions, BetterSqlite3Database } from './local-index.js';
export type { IndexDocument } from './extracted-docs.js';
export { searxng } from './searxng.js';
export type { SearxngOptions } from './searxng.js';
export { brave } from './brave.js';
export type { BraveOptions } from './brave.js';
export { googleCse } from './google-cse.js';
export type { GoogleCseOptions } from './google-cse.js';
export { duckduckgo } from './duckduckgo.js';
export type { DuckduckgoOptions } from './duckduckgo.js';
export { wikipedia } from './wikipedia.js';
export type { WikipediaOptions } from './wikipedia.js';
export type { FetchFn, RemoteSourceOptions } from './http.js';
export { SourceError, isSourceError } from '../core/router/index.js';
export type { SourceErrorReason } from '../core/router/index.js';
