// Validation of the search request body (contract §3): every bad field is listed in one 400.

import { InvalidRequestError, type FieldProblem } from '../errors.js';
import type { SearchRequest } from '../types.js';
import { collapseWhitespace } from './query.js';

export const MAX_QUERY_LENGTH = 2000;
export const DEFAULT_CONTENT_RESULTS = 5;
export const MAX_CONTENT_RESULTS = 10;

export interface SearchParams {
  /** Trimmed, whitespace collapsed. */
  q: string;
  includeContent: boolean;
  contentResults: number;
  /** The request sent `engine` or `engines` (ignored; the HTTP binding flags it). */
  deprecatedEngine: boolean;
}

export function parseSearchParams(body: SearchRequest): SearchParams {
  requireObjectBody(body);
  const problems: FieldProblem[] = [];
  const q = parseQ(body.q, problems);
  const includeContent = parseBooleanParam(body.include_content, 'include_content', problems) ?? false;
  const contentResults = parseIntegerParam(body.content_results, 'content_results', 1, MAX_CONTENT_RESULTS, problems);
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return {
    q,
    includeContent,
    contentResults: contentResults ?? DEFAULT_CONTENT_RESULTS,
    deprecatedEngine: body.engine !== undefined || body.engines !== undefined,
  };
}

function parseQ(value: unknown, problems: FieldProblem[]): string {
  if (value === undefined || value === null) {
    problems.push({ field: 'q', message: 'is required' });
    return '';
  }
  if (typeof value !== 'string') {
    problems.push({ field: 'q', message: 'must be a string' });
    return '';
  }
  const q = collapseWhitespace(value);
  if (q.length === 0) problems.push({ field: 'q', message: 'must not be empty' });
  else if (characterCount(q, MAX_QUERY_LENGTH) > MAX_QUERY_LENGTH) {
    problems.push({ field: 'q', message: `must be at most ${MAX_QUERY_LENGTH} characters` });
  }
  return q;
}

/**
 * Characters (code points) in `text`, counted only as far as `max + 1`: the contract's limit is in
 * characters, and `.length` counts UTF-16 units (an emoji is two).
 */
function characterCount(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let count = 0;
  for (const _ of text) if (++count > max) break;
  return count;
}

/** Request bodies are JSON objects; anything else is one 400 naming the body. */
export function requireObjectBody(body: unknown): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidRequestError([{ field: 'body', message: 'must be a JSON object' }]);
  }
}

/** A boolean, or (for GET pass-through) one of the strings true/false/1/0. Undefined when absent. */
export function parseBooleanParam(value: unknown, field: string, problems: FieldProblem[]): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  problems.push({ field, message: 'must be a boolean (true or false)' });
  return undefined;
}

/** An integer in [min, max], or (for GET pass-through) a string of decimal digits. Undefined when absent. */
export function parseIntegerParam(
  value: unknown,
  field: string,
  min: number,
  max: number,
  problems: FieldProblem[],
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/u.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    problems.push({ field, message: `must be an integer from ${min} to ${max}` });
    return undefined;
  }
  return n;
}
