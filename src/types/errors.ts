// The error codes and the metadata of an error body.
/** Every `code` an error body (and WebsiftError.code) can carry. */
export type ErrorCode =
  | 'invalid_request'
  | 'stealth_unavailable'
  | 'organization_exists'
  | 'unauthorized'
  | 'unknown_organization'
  | 'insufficient_credits'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_in_progress'
  | 'payload_too_large'
  | 'request_timeout'
  | 'rate_limited'
  | 'internal_error'
  | 'search_unavailable'
  | 'ledger_unavailable'
  | 'rate_limiter_unavailable'
  | 'cache_unavailable'
  | 'timeout';

export interface ErrorMetadata {
  status: 'error';
  response_time: number;
  timestamp: string;
}
