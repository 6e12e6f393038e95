// The `invalid_url` rule (contract: absolute http/https URLs of at most 2,048 characters), shared by the
// engine's request validation and the page loader.

import { FetchFailure } from '../ports/fetcher.js';

export const MAX_URL_LENGTH = 2048;

/** Why `input` is not a URL websift fetches, or null when it is. */
export function invalidUrlReason(input: unknown): string | null {
  if (typeof input !== 'string') return 'must be a string';
  if (input.length === 0) return 'must not be empty';
  if (input.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.hostname === '') return 'must have a host';
  return null;
}

/** The parsed URL (fragment removed), or FetchFailure('invalid_url'). */
export function parseFetchableUrl(input: string): URL {
  const reason = invalidUrlReason(input);
  if (reason !== null) throw new FetchFailure('invalid_url', `Invalid URL: ${reason}`);
  const url = new URL(input);
  url.hash = '';
  return url;
}
