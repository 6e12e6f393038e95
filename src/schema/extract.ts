// The extract request (POST /api/crawl) and its answer.

import { z } from 'zod';
import { invalidUrlReason, MAX_URL_LENGTH } from '../fetch/url-check.js';
import { absoluteUrl, count, flag, maxChars, partFields, queryString, timestamp } from './common.js';
import { pageMetadata } from './page-metadata.js';

export const MAX_URLS = 10;

const fetchableUrl = z
  .string({ error: 'must be a string' })
  .check(
    z.superRefine((url, ctx) => {
      const reason = invalidUrlReason(url);
      if (reason !== null) ctx.addIssue({ code: 'custom', message: reason, input: url });
    }),
  )
  .meta({ format: 'uri', maxLength: MAX_URL_LENGTH, description: 'Absolute http or https URL' });

export const extractRequest = z
  .object({
    urls: z
      .array(fetchableUrl, { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array of URLs') })
      .check(
        z.superRefine(
          (urls, ctx) => {
            if (urls.length === 0 || urls.length > MAX_URLS) {
              ctx.addIssue({ code: 'custom', message: `must hold 1 to ${MAX_URLS} URLs (got ${urls.length})`, input: urls });
            }
          },
          // Counted even when some items are bad, so one 400 names both.
          { when: (payload) => Array.isArray(payload.value) },
        ),
      )
      .meta({ minItems: 1, maxItems: MAX_URLS }),
    format: z.enum(['markdown', 'html'], { error: 'must be "markdown" or "html"' }).optional().meta({ default: 'markdown' }),
    stealth: flag('Full-browser rendering, 5 credits per page; unavailable (400 stealth_unavailable) from 2026-11-01'),
    include_links: flag("Add each page's links (absolute, deduplicated) to its result as `links`"),
    max_chars: maxChars(
      'At most this many characters of content over all pages, shared between them (links not counted); a cut page ' +
        'ends with a marker line naming the start_char to read on from',
    ),
    start_char: z
      .int({ error: 'must be an integer of at least 0' })
      .min(0, 'must be an integer of at least 0')
      .optional()
      .meta({ default: 0, description: "Skip this many characters of each page's content (to read on from a cut)" }),
    query: queryString(
      "Return each page's passages most relevant to this text (in reading order, under their headings) instead of the " +
        'page from the top; markdown format only; without max_chars, up to 2,000 characters per page',
    ).optional(),
  })
  .check(
    z.superRefine(
      (body, ctx) => {
        if (typeof body.query === 'string' && body.format === 'html') {
          ctx.addIssue({
            code: 'custom',
            path: ['query'],
            message: 'needs format "markdown": passages are picked from the Markdown',
            input: body.query,
          });
        }
      },
      // Also when other fields are bad, so one 400 names every problem.
      { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
    ),
  )
  .meta({ description: 'Unknown fields are ignored' });

export const extractErrorType = z.enum([
  'http',
  'unsupported_content_type',
  'too_large',
  'robots_disallowed',
  'blocked_address',
  'timeout',
  'network',
  'too_many_redirects',
  'invalid_url',
  'empty',
  'overloaded',
]);

export const extractResultItem = z.strictObject({
  url: z.string(),
  success: z.boolean(),
  markdown: z.string().optional(),
  html: z.string().optional(),
  status_code: z.int(),
  error: z.string().optional(),
  error_type: extractErrorType.optional(),
  stealth: z.literal(true).optional(),
  metadata: pageMetadata.optional().meta({ description: 'What the page says about itself; on successful results' }),
  links: z
    .array(absoluteUrl())
    .optional()
    .meta({ description: "The page's links, absolute and deduplicated; only when the request set include_links" }),
  ...partFields('on successful results, when the request set max_chars, start_char or query'),
});

export const extractResponse = z.strictObject({
  success: z.boolean(),
  results: z.array(extractResultItem),
  metadata: z.strictObject({
    total_urls: count(),
    processed_urls: count(),
    successful_crawls: count(),
    failed_crawls: count(),
    credits_used: count(),
    response_time: count('Milliseconds'),
    timestamp: timestamp(),
    stealth: z.literal(true).optional(),
    cached_free: z.int().min(1).optional().meta({ description: 'Free repeats among the URLs; omitted when 0' }),
  }),
});
