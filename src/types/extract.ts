// The extract answer: one result per URL (Markdown or HTML, page metadata, per-URL errors).
/**
 * What a page says about itself (docs/extract.md, "Page metadata"). Each field is present only when
 * the page states it; `final_url` (the URL after redirects) is on every successful result.
 */
export interface PageMetadata {
  title?: string;
  description?: string;
  /** A language tag (BCP 47), e.g. `en`, `pt-BR`. */
  language?: string;
  /** ISO 8601: `YYYY-MM-DD`, a UTC time `…Z` when the page gave an offset, else its local time without one. */
  published_time?: string;
  modified_time?: string;
  site_name?: string;
  /** Absolute http(s) URL. */
  canonical_url?: string;
  /** Absolute URL of the page after redirects. */
  final_url?: string;
}

export type ExtractErrorType =
  | 'http'
  | 'unsupported_content_type'
  | 'too_large'
  | 'robots_disallowed'
  | 'blocked_address'
  | 'timeout'
  | 'network'
  | 'too_many_redirects'
  | 'invalid_url'
  | 'empty'
  /** The organization already has as many pages waiting for conversion as it may (docs/operating.md); retry later. */
  | 'overloaded';

export interface ExtractResultItem {
  url: string;
  success: boolean;
  markdown?: string;
  html?: string;
  status_code: number;
  error?: string;
  error_type?: ExtractErrorType;
  stealth?: true;
  /** Successful results only. */
  metadata?: PageMetadata;
  /** Successful results of a request with `include_links: true` only: absolute http(s) links, in document order. */
  links?: string[];
  /** The full content's length (as `String.length`); only on successful results of a request with `max_chars`, `start_char` or `query`. */
  total_chars?: number;
  /** Whether content exists that this result does not show (a marker line says where to read on); beside `total_chars` only. */
  truncated?: boolean;
}

export interface ExtractMetadata {
  total_urls: number;
  processed_urls: number;
  successful_crawls: number;
  failed_crawls: number;
  credits_used: number;
  response_time: number;
  timestamp: string;
  stealth?: true;
  cached_free?: number;
}

export interface ExtractResponse {
  success: boolean;
  results: ExtractResultItem[];
  metadata: ExtractMetadata;
}
