// Validation of the extract request body (contract §3) against its schema (src/schema/extract.ts):
// every bad field is listed in one 400.

import { InvalidRequestError } from '../../errors.js';
import { extractRequest, problemsOf, wireForms } from '../../schema/index.js';
import { requireObjectBody } from '../search/index.js';

export { MAX_URLS } from '../../schema/extract.js';

export type ExtractFormat = 'markdown' | 'html';

/** The parsed extract request (the wire body's type is ExtractParams of src/types/). */
export interface ExtractParams {
  urls: string[];
  format: ExtractFormat;
  stealth: boolean;
  /**
   * Answer each successful page's links too (not part of URL sameness: docs/extract.md). Set only
   * when true, so a call without it keeps the idempotency fingerprint it had before the flag existed.
   */
  includeLinks?: true;
}

export function parseExtractParams(body: unknown): ExtractParams {
  requireObjectBody(body);
  // `urls: null` stays: it is "must be an array of URLs", not "is required".
  const parsed = extractRequest.safeParse(wireForms(body, { absent: ['format'], flags: ['stealth', 'include_links'] }));
  if (!parsed.success) throw new InvalidRequestError(problemsOf(parsed.error));
  return {
    urls: parsed.data.urls,
    format: parsed.data.format ?? 'markdown',
    stealth: parsed.data.stealth ?? false,
    ...(parsed.data.include_links === true ? { includeLinks: true as const } : {}),
  };
}
