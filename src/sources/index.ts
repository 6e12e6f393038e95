// websift/sources: the search source factories.

export type { SourceErrorReason } from '../core/router/index.js';
export { isSourceError, SourceError } from '../core/router/index.js';
export type { BraveOptions } from './brave.js';
export { brave } from './brave.js';
export type { DuckduckgoOptions } from './duckduckgo.js';
export { duckduckgo } from './duckduckgo.js';
export type { IndexDocument } from './extracted-docs.js';
export type { GoogleCseOptions } from './google-cse.js';
export { googleCse } from './google-cse.js';
export type { FetchFn, RemoteSourceOptions } from './http.js';
export type { BetterSqlite3Database, LocalIndex, LocalIndexOptions } from './local-index.js';
export { localIndex } from './local-index.js';
export type { SearxngOptions } from './searxng.js';
export { searxng } from './searxng.js';
export type { WikipediaOptions } from './wikipedia.js';
export { wikipedia } from './wikipedia.js';
