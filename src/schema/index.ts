// The HTTP API described once (zod): request validation (src/core), the OpenAPI document
// (src/http/openapi.ts → docs/openapi.json) and, checked by type-checks.ts, the public types of src/types/.

import type { z } from 'zod';
import { errorBody, insufficientCreditsBody, payloadTooLargeBody, rateLimitBody, searchErrorBody } from './errors.js';
import { extractRequest, extractResponse, extractResultItem } from './extract.js';
import { pageMetadata } from './page-metadata.js';
import { emptySearchResponse, searchRequest, searchResponse, searchResultItem } from './search.js';
import { usageResponse } from './usage.js';

export * from './common.js';
export * from './errors.js';
export * from './extract.js';
export * from './page-metadata.js';
export * from './search.js';
export * from './usage.js';

/** Request bodies, by their OpenAPI component name (described as the client sends them). */
export const requestSchemas = { SearchRequest: searchRequest, ExtractRequest: extractRequest } satisfies Record<string, z.ZodType>;

/** Response bodies, by their OpenAPI component name (described as the server writes them). */
export const responseSchemas = {
  PageMetadata: pageMetadata,
  SearchResult: searchResultItem,
  SearchResponse: searchResponse,
  EmptySearchResponse: emptySearchResponse,
  ExtractResult: extractResultItem,
  ExtractResponse: extractResponse,
  UsageResponse: usageResponse,
  Error: errorBody,
  InsufficientCreditsError: insufficientCreditsBody,
  RateLimitError: rateLimitBody,
  PayloadTooLargeError: payloadTooLargeBody,
  SearchError: searchErrorBody,
} satisfies Record<string, z.ZodType>;
