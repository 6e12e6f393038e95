// Google Programmable Search Engine, Custom Search JSON API (`GET {baseUrl}/customsearch/v1`, `key` + `cx`).
// Errors use Google's standard shape: `{ "error": { "code", "message", "errors": [{ "reason" }], "status", "details" } }`.

import { SourceError } from '../core/router/index.js';
import type { SearchSource } from '../types/index.js';
import { cleanText } from './html-text.js';
import {
  absoluteUrl,
  badResponse,
  baseUrlOption,
  checkContext,
  isRecord,
  parseJson,
  type RemoteSourceOptions,
  type Reply,
  requiredString,
  send,
  statusError,
  str,
} from './http.js';
import { filterResults, renderQuery } from './operators.js';

/** Options of `googleCse`. */
export interface GoogleCseOptions extends RemoteSourceOptions {
  /** Google API key with the Custom Search JSON API enabled (required). */
  apiKey: string;
  /** The Programmable Search Engine ID. */
  cx: string;
  /** Default `https://www.googleapis.com`. */
  baseUrl?: string;
  /** `gl`: two-letter country whose results are boosted. */
  gl?: string;
  /** `lr`, e.g. `lang_en`. */
  lr?: string;
  /** SafeSearch (`safe`); default the API's (`off`). */
  safe?: 'active' | 'off';
}

const NAME = 'google-cse';
/** The API's maximum `num`. */
const MAX_NUM = 10;

/**
 * A search source over Google's Custom Search JSON API (Programmable Search Engine; at most 10 results
 * per call). Id `google-cse`.
 *
 * Its `search` rejects with a `SourceError` (`reason` auth, quota, config, rate_limited, unavailable or
 * bad_response) that the router acts on: auth/quota/config suspend the source, rate_limited honours
 * Retry-After, the rest are retried and fall back to the next source. Sources are not subject to the
 * engine's address policy.
 * @throws {TypeError} at creation without `apiKey` or `cx`, or with a `baseUrl` that is not a URL.
 */
export function googleCse(options: GoogleCseOptions): SearchSource {
  const apiKey = requiredString(NAME, 'apiKey', options?.apiKey);
  const cx = requiredString(NAME, 'cx', options.cx);
  const baseUrl = baseUrlOption(NAME, options.baseUrl, 'https://www.googleapis.com');
  return {
    id: options.id ?? NAME,
    async search(query, ctx) {
      const limit = checkContext(NAME, ctx);
      const params = new URLSearchParams({ key: apiKey, cx, q: renderQuery(query), num: String(Math.min(limit, MAX_NUM)) });
      if (options.gl) params.set('gl', options.gl);
      if (options.lr) params.set('lr', options.lr);
      if (options.safe) params.set('safe', options.safe);
      const reply = await send(
        NAME,
        options,
        { url: `${baseUrl}/customsearch/v1?${params}`, headers: { accept: 'application/json' } },
        ctx.signal,
      );
      if (reply.status < 200 || reply.status > 299) throw googleError(reply, options);

      const body = parseJson(NAME, reply);
      if (!isRecord(body) || (body.items !== undefined && !Array.isArray(body.items)))
        throw badResponse(NAME, reply, 'not a search response');
      const items: unknown[] = Array.isArray(body.items) ? body.items : [];
      const results = [];
      for (const item of items) {
        if (!isRecord(item)) continue;
        const url = absoluteUrl(item.link);
        if (!url) continue;
        results.push({ title: cleanText(str(item.title)) || url, url, snippet: cleanText(str(item.snippet)) });
      }
      const kept = filterResults(results, query).slice(0, limit);
      ctx.signal.throwIfAborted();
      if (kept.length > 0) return { results: kept };
      // The API's notice is an explicit total of "0"; no items with a non-zero (or missing) total is not one.
      const info = isRecord(body.searchInformation) ? body.searchInformation : {};
      const total = info.totalResults;
      return items.length === 0 && (total === '0' || total === 0) ? { results: [], noResultsNotice: true } : { results: [] };
    },
  };
}

const QUOTA_REASONS = new Set(['dailyLimitExceeded', 'quotaExceeded', 'dailyLimitExceededUnreg', 'billingNotEnabled']);
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED']);
const CONFIG_REASONS = new Set(['accessNotConfigured', 'SERVICE_DISABLED', 'invalid', 'invalidParameter']);

function googleError(reply: Reply, options: GoogleCseOptions): SourceError {
  let error: Record<string, unknown> = {};
  try {
    const body = JSON.parse(reply.text) as unknown;
    if (isRecord(body) && isRecord(body.error)) error = body.error;
  } catch {
    // not JSON: the status alone decides
  }
  const reasons = new Set<string>();
  for (const list of [error.errors, error.details]) {
    if (Array.isArray(list)) for (const e of list) if (isRecord(e) && typeof e.reason === 'string') reasons.add(e.reason);
  }
  const text = str(error.message);
  const message = `${NAME}: HTTP ${reply.status}${text ? `: ${text}` : ''}`;
  const has = (set: Set<string>) => [...reasons].some((r) => set.has(r));
  const status = reply.status;

  if (reasons.has('keyInvalid') || reasons.has('API_KEY_INVALID') || /API key not valid/i.test(text)) {
    return new SourceError(message, { reason: 'auth', status });
  }
  // A per-day limit is a quota (until the next day); a per-minute one is a rate limit.
  if (has(QUOTA_REASONS) || ((status === 429 || status === 403) && /per day/i.test(text))) {
    return new SourceError(message, { reason: 'quota', status });
  }
  if (has(RATE_REASONS) || status === 429) {
    const wait = statusError(NAME, reply, '', options.clock).retryAfterMs;
    return new SourceError(message, { reason: 'rate_limited', status, ...(wait === undefined ? {} : { retryAfterMs: wait }) });
  }
  if (has(CONFIG_REASONS) || status === 400 || /does not have the access/i.test(text)) {
    // A bad `cx` is answered "Request contains an invalid argument." (400): the setup, not the query.
    return new SourceError(message, { reason: 'config', status });
  }
  return statusError(NAME, reply, text, options.clock);
}
