// The search request and its answers (success and no_results).

import { z } from 'zod';
import { absoluteUrl, collapseWhitespace, count, flag, timestamp } from './common.js';
import { pageMetadata } from './page-metadata.js';

export const MAX_QUERY_LENGTH = 2000;
export const DEFAULT_CONTENT_RESULTS = 5;
export const MAX_CONTENT_RESULTS = 10;

const contentResultsMessage = `must be an integer from 1 to ${MAX_CONTENT_RESULTS}`;

export const searchRequest = z
  .object({
    q: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .overwrite(collapseWhitespace)
      .refine((q) => q.length > 0, 'must not be empty')
      // The limit is in characters (code points); zod's maxLength counts UTF-16 units.
      .refine((q) => characterCount(q, MAX_QUERY_LENGTH) <= MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
      .meta({ minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'The query, 1–2,000 characters after trimming; supports "phrases", site:, -site:, filetype:' }),
    include_content: flag('Also fetch the result pages and return their main content as Markdown'),
    content_results: z
      .int({ error: contentResultsMessage })
      .min(1, contentResultsMessage)
      .max(MAX_CONTENT_RESULTS, contentResultsMessage)
      .optional()
      .meta({ default: DEFAULT_CONTENT_RESULTS, description: 'How many result pages to fetch with include_content' }),
    engine: z.unknown().optional().meta({ deprecated: true, description: 'Ignored; answers carry a Deprecation header' }),
    engines: z.unknown().optional().meta({ deprecated: true, description: 'Ignored; answers carry a Deprecation header' }),
  })
  .meta({ description: 'Unknown fields are ignored' });

/**
 * Characters (code points) in `text`, counted only as far as `max + 1`: the contract's limit is in
 * characters, and `.length` counts UTF-16 units (an emoji is two).
 */
function characterCount(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let n = 0;
  for (const _ of text) if (++n > max) break;
  return n;
}

export const contentError = z.enum(['blocked', 'robots_disallowed', 'timeout', 'http', 'unsupported_content_type', 'too_large', 'network', 'empty', 'overloaded']);

export const searchResultItem = z.strictObject({
  title: z.string(),
  url: absoluteUrl(),
  snippet: z.string(),
  position: z.int().min(1),
  engine: z.literal('auto'),
  content: z.string().optional().meta({ description: 'Markdown of the page; only with include_content, on success' }),
  content_error: contentError.optional().meta({ description: 'Why the page has no content; only with include_content' }),
  metadata: pageMetadata.optional().meta({ description: 'What the page says about itself; only beside content' }),
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
