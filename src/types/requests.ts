// What a call carries: its context (organization, cancellation, idempotency key) and the request
// bodies, exactly the wire JSON (src/schema/ describes them; the engine validates them).
/** Who a call is made for. */
export interface CallContext {
  /** The organization the call is made for and charged to (from `engine.authenticate(key)` over HTTP). */
  organization: string;
  /** Cancels the call: work in progress stops and the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * search and extract (usage ignores it): 1–255 printable ASCII characters. A retry with the same key
   * and the same parameters within 24 h answers the first answer again, charged and counted once; the
   * same key with other parameters is refused (400). See docs/engine.md, "Idempotency keys".
   */
  idempotencyKey?: string;
}

/**
 * The search request body. Its type is what the API documents; at run time the engine also takes `null`
 * for an absent field and the GET query-string spellings (`include_content: 'true'`, `content_results: '5'`),
 * and answers anything else with a 400 listing every problem.
 */
export interface SearchParams {
  /** The query: 1–2,000 characters after trimming and collapsing whitespace. */
  q: string;
  /** Fetch the result pages' main content as Markdown (default false). */
  include_content?: boolean;
  /** How many result pages to fetch with include_content: an integer from 1 to 10 (default 5). */
  content_results?: number;
  /**
   * With include_content: at most this many characters of content over all the pages (an integer ≥ 1),
   * shared fairly between them; each page then gives its passages most relevant to `q`, and results
   * with content carry `total_chars` and `truncated`. A repeat with another budget is still a free
   * repeat (docs/extract.md, "Reading in parts").
   */
  max_chars?: number;
  /** @deprecated Ignored (search routes automatically); the HTTP answer carries a Deprecation header. */
  engine?: unknown;
  /** @deprecated Ignored (search routes automatically); the HTTP answer carries a Deprecation header. */
  engines?: unknown;
}

/** The extract request body (see SearchParams for the spellings the engine also accepts at run time). */
export interface ExtractParams {
  /** 1–10 absolute http/https URLs of at most 2,048 characters. */
  urls: string[];
  /** Default 'markdown'. */
  format?: 'markdown' | 'html';
  /** Full-browser rendering (5 credits per page); unavailable (400 stealth_unavailable) from 2026-11-01. */
  stealth?: boolean;
  /** Add each page's links (absolute, deduplicated) to its result as `links` (default false). */
  include_links?: boolean;
  /**
   * At most this many characters of content (an integer ≥ 1) over all the pages of the call, shared
   * fairly between them (links not counted). A cut page ends with a marker line naming the
   * `start_char` to read on from. See docs/extract.md, "Reading in parts".
   */
  max_chars?: number;
  /** Skip this many characters (UTF-16 code units, as `String.length`) of each page's content first (default 0). */
  start_char?: number;
  /**
   * Return each page's passages most relevant to this text (1–2,000 characters), in reading order
   * under their headings, instead of the page from the top: up to `max_chars` over all pages, or
   * 2,000 characters per page without it. `format: 'markdown'` only (with 'html': 400 naming `query`).
   */
  query?: string;
}

/** The search request body (an earlier name of SearchParams). */
export type SearchRequest = SearchParams;
/** The extract request body (an earlier name of ExtractParams). */
export type ExtractRequest = ExtractParams;
