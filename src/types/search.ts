// The search answers: results (with content and page metadata on request) or an empty answer.

import type { PageMetadata } from './extract.js';

export interface SearchResultItem {
  title: string;
  url: string;
  snippet: string;
  position: number;
  engine: 'auto';
  content?: string;
  content_error?: ContentError;
  /** Only beside `content`. */
  metadata?: PageMetadata;
  /** The page's full content length (as `String.length`); beside `content`, when the request set `max_chars`. */
  total_chars?: number;
  /** Whether the page has content this result does not show; beside `total_chars` only. */
  truncated?: boolean;
}

export type ContentError =
  | 'blocked'
  | 'robots_disallowed'
  | 'timeout'
  | 'http'
  | 'unsupported_content_type'
  | 'too_large'
  | 'network'
  | 'empty'
  /** The organization already has as many pages waiting for conversion as it may. */
  | 'overloaded';

/** Metadata of a search answer with results (`status: 'success'`). */
export interface SearchMetadata {
  number_of_results: number;
  credits_used: number;
  from_cache: boolean;
  status: 'success';
  response_time: number;
  timestamp: string;
  /** Only on include_content requests. */
  content_requested?: number;
  /** Only on include_content requests. */
  content_delivered?: number;
}

/** Metadata of an empty search answer (`status: 'no_results'`). */
export interface EmptySearchMetadata extends Omit<SearchMetadata, 'status'> {
  status: 'no_results';
  /** The empty answer was confirmed by enough sources (and so charged and cached). */
  no_results_verified: boolean;
  charged: boolean;
  message: string;
}

export interface SearchResponse {
  id: string;
  query: string;
  engines: ['auto'];
  results: SearchResultItem[];
  metadata: SearchMetadata;
}

export interface EmptySearchResponse {
  query: string;
  results: [];
  message: string;
  metadata: EmptySearchMetadata;
}

/**
 * What `engine.search` resolves with. `r.metadata.status` narrows `r.metadata`; TypeScript does not
 * narrow `r` itself on a nested field, so narrow it with `'id' in r` (only SearchResponse has an id).
 */
export type SearchAnswer = SearchResponse | EmptySearchResponse;
