// Validation of the extract request body (contract §3): every bad field is listed in one 400.

import { InvalidRequestError, type FieldProblem } from '../../errors.js';
import type { ExtractRequest } from '../../types.js';

export const MAX_URLS = 10;
export const MAX_URL_LENGTH = 2048;

export type ExtractFormat = 'markdown' | 'html';

export interface ExtractParams {
  urls: string[];
  format: ExtractFormat;
  stealth: boolean;
}

export function parseExtractParams(body: ExtractRequest): ExtractParams {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidRequestError([{ field: 'body', message: 'must be a JSON object' }]);
  }
  const problems: FieldProblem[] = [];
  const urls = parseUrls(body.urls, problems);
  const format = body.format ?? 'markdown';
  if (format !== 'markdown' && format !== 'html') {
    problems.push({ field: 'format', message: 'must be "markdown" or "html"' });
  }
  const stealth = parseBoolean(body.stealth, 'stealth', problems);
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return { urls, format: format as ExtractFormat, stealth };
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
    const problem = urlProblem(item);
    if (problem) problems.push({ field: `urls[${i}]`, message: problem });
  });
  return value.filter((v): v is string => typeof v === 'string');
}

/** Why a requested URL is unusable, or null. */
export function urlProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not carry credentials';
  return null;
}

function parseBoolean(value: unknown, field: string, problems: FieldProblem[]): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  problems.push({ field, message: 'must be a boolean' });
  return false;
}
