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
  /**
   * Reading in parts (docs/extract.md, "Reading in parts"): set only when given, like includeLinks, so
   * a call without them keeps its idempotency fingerprint and its answer byte for byte. Not part of
   * URL sameness: they are applied to the page as delivered, never to what is cached.
   */
  maxChars?: number;
  startChar?: number;
  query?: string;
}

export function parseExtractParams(body: unknown): ExtractParams {
  requireObjectBody(body);
  // `urls: null` stays: it is "must be an array of URLs", not "is required".
  const parsed = extractRequest.safeParse(
    wireForms(body, { absent: ['format', 'query'], flags: ['stealth', 'include_links'], integers: ['max_chars', 'start_char'] }),
  );
  if (!parsed.success) throw new InvalidRequestError(problemsOf(parsed.error));
  const { data } = parsed;
  return {
    urls: data.urls,
    format: data.format ?? 'markdown',
    stealth: data.stealth ?? false,
    ...(data.include_links === true ? { includeLinks: true as const } : {}),
    ...(data.max_chars !== undefined ? { maxChars: data.max_chars } : {}),
    ...(data.start_char !== undefined ? { startChar: data.start_char } : {}),
    ...(data.query !== undefined ? { query: data.query } : {}),
  };
}
