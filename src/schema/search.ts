// The search request and its answers (success and no_results).

import { z } from 'zod';
import { absoluteUrl, count, flag, maxChars, partFields, queryString, timestamp } from './common.js';
import { pageMetadata } from './page-metadata.js';

export { MAX_QUERY_LENGTH } from './common.js';
export const DEFAULT_CONTENT_RESULTS = 5;
export const MAX_CONTENT_RESULTS = 10;

const contentResultsMessage = `must be an integer from 1 to ${MAX_CONTENT_RESULTS}`;

export const searchRequest = z
  .object({
    q: queryString('The query, 1–2,000 characters after trimming; supports "phrases", site:, -site:, filetype:'),
    include_content: flag('Also fetch the result pages and return their main content as Markdown'),
    content_results: z
      .int({ error: contentResultsMessage })
      .min(1, contentResultsMessage)
      .max(MAX_CONTENT_RESULTS, contentResultsMessage)
      .optional()
      .meta({ default: DEFAULT_CONTENT_RESULTS, description: 'How many result pages to fetch with include_content' }),
    max_chars: maxChars(
      'With include_content: at most this many characters of content over all pages, shared between them; each page ' +
        "gives the passages most relevant to `q`. Not part of a repeat's identity: a repeat with another budget is free",
    ),
    engine: z.unknown().optional().meta({ deprecated: true, description: 'Ignored; answers carry a Deprecation header' }),
    engines: z.unknown().optional().meta({ deprecated: true, description: 'Ignored; answers carry a Deprecation header' }),
  })
  .meta({ description: 'Unknown fields are ignored' });

export const contentError = z.enum([
  'blocked',
  'robots_disallowed',
  'timeout',
  'http',
  'unsupported_content_type',
  'too_large',
  'network',
  'empty',
  'overloaded',
]);

export const searchResultItem = z.strictObject({
  title: z.string(),
  url: absoluteUrl(),
  snippet: z.string(),
  position: z.int().min(1),
  engine: z.literal('auto'),
  content: z.string().optional().meta({ description: 'Markdown of the page; only with include_content, on success' }),
  content_error: contentError.optional().meta({ description: 'Why the page has no content; only with include_content' }),
  metadata: pageMetadata.optional().meta({ description: 'What the page says about itself; only beside content' }),
  ...partFields('beside content, when the request set max_chars'),
});

const metadataFields = {
  number_of_results: count(),
  credits_used: count(),
  from_cache: z.boolean(),
  response_time: count('Milliseconds'),
  timestamp: timestamp(),
  content_requested: count('Only on include_content requests').optional(),
  content_delivered: count('Only on include_content requests').optional(),
};

export const searchResponse = z.strictObject({
  id: z.uuid(),
  query: z.string(),
  engines: z.tuple([z.literal('auto')]),
  results: z.array(searchResultItem),
  metadata: z.strictObject({ ...metadataFields, status: z.literal('success') }),
});

export const emptySearchResponse = z.strictObject({
  query: z.string(),
  results: z.tuple([]),
  message: z.string(),
  metadata: z.strictObject({
    ...metadataFields,
    status: z.literal('no_results'),
    no_results_verified: z.boolean().meta({ description: 'Confirmed by enough sources: charged and cached' }),
    charged: z.boolean(),
    message: z.string(),
  }),
});
