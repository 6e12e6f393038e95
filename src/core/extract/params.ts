// Validation of the extract request body (contract §3): every bad field is listed in one 400.

import { InvalidRequestError, type FieldProblem } from '../../errors.js';
import { invalidUrlReason } from '../../fetch/url-check.js';
import type { ExtractRequest } from '../../types.js';
import { parseBooleanParam, requireObjectBody } from '../search-params.js';

export const MAX_URLS = 10;

export type ExtractFormat = 'markdown' | 'html';

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

export function parseExtractParams(body: ExtractRequest): ExtractParams {
  requireObjectBody(body);
  const problems: FieldProblem[] = [];
  const urls = parseUrls(body.urls, problems);
  const format = body.format ?? 'markdown';
  if (format !== 'markdown' && format !== 'html') {
    problems.push({ field: 'format', message: 'must be "markdown" or "html"' });
  }
  const stealth = parseBooleanParam(body.stealth, 'stealth', problems) ?? false;
  const includeLinks = parseBooleanParam(body.include_links, 'include_links', problems) ?? false;
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return { urls, format: format as ExtractFormat, stealth, ...(includeLinks ? { includeLinks: true as const } : {}) };
}

function parseUrls(value: unknown, problems: FieldProblem[]): string[] {
  if (value === undefined) {
    problems.push({ field: 'urls', message: 'is required' });
    return [];
  }
  if (!Array.isArray(value)) {
    problems.push({ field: 'urls', message: 'must be an array of URLs' });
    return [];
  }
  if (value.length === 0 || value.length > MAX_URLS) {
    problems.push({ field: 'urls', message: `must hold 1 to ${MAX_URLS} URLs (got ${value.length})` });
  }
  value.forEach((item, i) => {
    const problem = invalidUrlReason(item);
    if (problem) problems.push({ field: `urls[${i}]`, message: problem });
  });
  return value.filter((v): v is string => typeof v === 'string');
}
