// Validation of the search request body (contract §3) against its schema (src/schema/search.ts): every
// bad field is listed in one 400.

import { InvalidRequestError } from '../../errors.js';
import { characterCount, collapseWhitespace } from '../../schema/common.js';
import { problemsOf, searchRequest, wireForms } from '../../schema/index.js';
import { DEFAULT_CONTENT_RESULTS, MAX_QUERY_LENGTH } from '../../schema/search.js';

export { DEFAULT_CONTENT_RESULTS, MAX_CONTENT_RESULTS, MAX_QUERY_LENGTH } from '../../schema/search.js';

/** The parsed search (the wire body's type is SearchParams of src/types/). */
export interface SearchParams {
  /** Trimmed, whitespace collapsed. */
  q: string;
  includeContent: boolean;
  contentResults: number;
  /**
   * The content budget of include_content (docs/extract.md, "Reading in parts"); set only when given,
   * so a call without it keeps its idempotency fingerprint. Not part of the repeat key (query.ts).
   */
  maxChars?: number;
  /** The request sent `engine` or `engines` (ignored; the HTTP binding flags it). */
  deprecatedEngine: boolean;
}

export function parseSearchParams(body: unknown): SearchParams {
  requireObjectBody(body);
  return commonShape(body) ?? parseWithSchema(body);
}

/** The schema's parse of an object body (every body's meaning; the fast path gives the same for its shape). */
export function parseWithSchema(body: Record<string, unknown>): SearchParams {
  const parsed = searchRequest.safeParse(
    wireForms(body, { absent: ['q'], flags: ['include_content'], integers: ['content_results', 'max_chars'] }),
  );
  if (!parsed.success) throw new InvalidRequestError(problemsOf(parsed.error));
  return {
    q: parsed.data.q,
    includeContent: parsed.data.include_content ?? false,
    contentResults: parsed.data.content_results ?? DEFAULT_CONTENT_RESULTS,
    ...(parsed.data.max_chars !== undefined ? { maxChars: parsed.data.max_chars } : {}),
    deprecatedEngine: body['engine'] !== undefined || body['engines'] !== undefined,
  };
}

/**
 * The usual body, `{ q }` (a string that is valid once collapsed) with none of the other fields, parsed
 * without zod: what the schema would give, at a fraction of its cost. Anything else (another field
 * present, even null; a bad q) returns undefined and takes the schema, whose errors stay the only ones.
 */
function commonShape(body: Record<string, unknown>): SearchParams | undefined {
  if (!Object.hasOwn(body, 'q')) return undefined;
  const raw = body['q'];
  if (typeof raw !== 'string') return undefined;
  for (const name of OTHER_FIELDS) if (Object.hasOwn(body, name) || body[name] !== undefined) return undefined;
  const q = collapseWhitespace(raw);
  if (q.length === 0 || characterCount(q, MAX_QUERY_LENGTH) > MAX_QUERY_LENGTH) return undefined;
  return { q, includeContent: false, contentResults: DEFAULT_CONTENT_RESULTS, deprecatedEngine: false };
}

/** The request's fields other than `q`, from its schema: the fast path only takes a body with none of them. */
const OTHER_FIELDS = Object.keys(searchRequest.shape).filter((name) => name !== 'q');

/** Request bodies are JSON objects; anything else is one 400 naming the body. */
export function requireObjectBody(body: unknown): asserts body is Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidRequestError([{ field: 'body', message: 'must be a JSON object' }]);
  }
}
