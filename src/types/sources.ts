// The search source port: what a source is asked (a parsed query) and what it answers.
/** A parsed search query, as handed to every source. */
export interface SearchQuery {
  /** The query as searched (trimmed, whitespace collapsed). */
  q: string;
  /** Quoted phrases, without their quotes. */
  phrases: string[];
  /** Hosts from positive `site:` operators. */
  sites: string[];
  /** Hosts from `-site:` operators. */
  excludedSites: string[];
  /** Extensions from `filetype:` operators, lower-case, without a dot. */
  filetypes: string[];
  /** Remaining plain terms (including `-term` exclusions as written). */
  terms: string[];
}

export interface SourceResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SourceAnswer {
  results: SourceResult[];
  /** True when the source explicitly stated that the query has no results. */
  noResultsNotice?: boolean;
}

export interface SourceContext {
  signal: AbortSignal;
  /** How many results the engine wants. */
  limit: number;
}

/** A search backend. A thrown error, a rejected promise, or an answer after `ctx.signal` aborted is a failure. */
export interface SearchSource {
  readonly id: string;
  search(query: SearchQuery, ctx: SourceContext): Promise<SourceAnswer>;
  /** Its empty answers do not count for multi-phrase (or filetype + phrase) queries. */
  readonly unreliableEmpties?: boolean;
}
