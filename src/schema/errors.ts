// Error bodies: the common shape, its variants with extra fields, and the spec's search 503.

import { z } from 'zod';
import { count, timestamp } from './common.js';

export const ERROR_CODES = [
  'invalid_request',
  'stealth_unavailable',
  'organization_exists',
  'unauthorized',
  'unknown_organization',
  'insufficient_credits',
  'not_found',
  'method_not_allowed',
  'idempotency_in_progress',
  'payload_too_large',
  'request_timeout',
  'rate_limited',
  'internal_error',
  'search_unavailable',
  'ledger_unavailable',
  'rate_limiter_unavailable',
  'cache_unavailable',
  'timeout',
] as const;

export const errorCode = z.enum(ERROR_CODES);

const errorMetadata = z.strictObject({ status: z.literal('error'), response_time: count('Milliseconds'), timestamp: timestamp() });

export const errorBody = z.strictObject({
  status: z.literal('error'),
  error: z.string(),
  code: errorCode,
  retryable: z.boolean(),
  metadata: errorMetadata,
  problems: z
    .array(z.strictObject({ field: z.string(), message: z.string() }))
    .optional()
    .meta({ description: 'On 400: every problem, by field' }),
  request_id: z.string().optional().meta({ description: 'The X-Request-Id of the request (HTTP bindings only)' }),
});

export const insufficientCreditsBody = errorBody.extend({ credits_required: count(), credits_available: count() });
export const rateLimitBody = errorBody.extend({ retry_after: z.int().min(1).meta({ description: 'Seconds' }) });
export const payloadTooLargeBody = errorBody.extend({ max_body_bytes: count() });

/** The spec's search error response (503), exactly: no `code`. */
export const searchErrorBody = z.strictObject({
  status: z.literal('error'),
  error: z.string(),
  retryable: z.literal(true),
  metadata: errorMetadata,
});
