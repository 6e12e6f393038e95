// Brave Search API, web search (`GET {baseUrl}/res/v1/web/search`, key in `X-Subscription-Token`).
// Errors come as `{ "type": "ErrorResponse", "error": { "status", "code", "detail", "meta" } }`.

import { SourceError } from '../core/router/index.js';
import type { SearchSource } from '../types/index.js';
import { htmlToText } from './html-text.js';
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

/** Options of `brave`. */
export interface BraveOptions extends RemoteSourceOptions {
  /** Brave Search API subscription token (required), sent as `X-Subscription-Token`. */
  apiKey: string;
  /** Default `https://api.search.brave.com`. */
  baseUrl?: string;
  /** Two-letter country code (`country`). */
  country?: string;
  /** `search_lang`, e.g. `en`. */
  searchLang?: string;
  /** `safesearch`; default: the API's (moderate). */
  safesearch?: 'off' | 'moderate' | 'strict';
}

const NAME = 'brave';
/** The API's maximum `count`. */
const MAX_COUNT = 20;

/**
 * A search source over the Brave Search API (web search; at most 20 results per call). Id `brave`.
 *
 * Its `search` rejects with a `SourceError` (`reason` auth, quota, config, rate_limited, unavailable or
 * bad_response) that the router acts on: auth/quota/config suspend the source, rate_limited honours
 * Retry-After, the rest are retried and fall back to the next source. Sources are not subject to the
 * engine's address policy.
 * @throws {TypeError} at creation without `apiKey`, or with a `baseUrl` that is not a URL.
 * @example
 * ```ts
 * createEngine({ sources: [brave({ apiKey: process.env.BRAVE_API_KEY! })] });
 * ```
 */
export function brave(options: BraveOptions): SearchSource {
  const apiKey = requiredString(NAME, 'apiKey', options?.apiKey);
  const baseUrl = baseUrlOption(NAME, options.baseUrl, 'https://api.search.brave.com');
  return {
    id: options.id ?? NAME,
    async search(query, ctx) {
      const limit = checkContext(NAME, ctx);
      const params = new URLSearchParams({ q: renderQuery(query), count: String(Math.min(limit, MAX_COUNT)) });
      if (options.country) params.set('country', options.country);
      if (options.searchLang) params.set('search_lang', options.searchLang);
      if (options.safesearch) params.set('safesearch', options.safesearch);
      const reply = await send(
        NAME,
        options,
        { url: `${baseUrl}/res/v1/web/search?${params}`, headers: { accept: 'application/json', 'x-subscription-token': apiKey } },
        ctx.signal,
      );
      if (reply.status < 200 || reply.status > 299) throw braveError(reply, options);

      const body = parseJson(NAME, reply);
      if (!isRecord(body) || body.type === 'ErrorResponse') throw badResponse(NAME, reply, 'not a search response');
      const web = body.web;
      if (web !== undefined && !(isRecord(web) && (web.results === undefined || Array.isArray(web.results)))) {
        throw badResponse(NAME, reply, '`web.results` is not an array');
      }
      const items: unknown[] = isRecord(web) && Array.isArray(web.results) ? web.results : [];
      const results = [];
      for (const item of items) {
        if (!isRecord(item)) continue;
        const url = absoluteUrl(item.url);
        if (!url) continue;
        results.push({ title: htmlToText(str(item.title)) || url, url, snippet: htmlToText(str(item.description)) });
      }
      const kept = filterResults(results, query).slice(0, limit);
      ctx.signal.throwIfAborted();
      if (kept.length > 0) return { results: kept };
      // A well-formed search response without web results (Brave then omits `web`) is Brave's
      // statement that the query has none; results we filtered away are not.
      return items.length === 0 ? { results: [], noResultsNotice: true } : { results: [] };
    },
  };
}

/** Brave's error codes refine the status: quota exhaustion and invalid tokens are not plain 4xx. */
function braveError(reply: Reply, options: BraveOptions): SourceError {
  let error: Record<string, unknown> = {};
  try {
    const body = JSON.parse(reply.text) as unknown;
    if (isRecord(body) && isRecord(body.error)) error = body.error;
  } catch {
    // not JSON: the status alone decides
  }
  const code = str(error.code);
  const detail = [code, str(error.detail)].filter(Boolean).join(': ');
  const message = `${NAME}: HTTP ${reply.status}${detail ? `: ${detail}` : ''}`;
  const meta = isRecord(error.meta) ? error.meta : {};

  if (code === 'SUBSCRIPTION_TOKEN_INVALID' || meta.component === 'authentication') {
    return new SourceError(message, { reason: 'auth', status: reply.status });
  }
  // X-RateLimit-* carry two windows: per second, then per month ("1, 15000").
  const remaining = windows(reply.headers.get('x-ratelimit-remaining'));
  const reset = windows(reply.headers.get('x-ratelimit-reset'));
  const quotaOut =
    reply.status === 402 ||
    /QUOTA|CREDIT|USAGE_LIMIT/.test(code) ||
    (typeof meta.quota_limit === 'number' && typeof meta.quota_current === 'number' && meta.quota_current >= meta.quota_limit) ||
    (reply.status === 429 && remaining[1] === 0);
  if (quotaOut) {
    const wait = reset[1];
    return new SourceError(message, {
      reason: 'quota',
      status: reply.status,
      ...(wait === undefined ? {} : { retryAfterMs: wait * 1000 }),
    });
  }
  if (reply.status === 429) {
    const fromHeader = statusError(NAME, reply, detail, options.clock);
    const wait = fromHeader.retryAfterMs ?? (reset[0] === undefined ? undefined : reset[0] * 1000);
    return new SourceError(message, { reason: 'rate_limited', status: 429, ...(wait === undefined ? {} : { retryAfterMs: wait }) });
  }
  // Other 422s reject this query's parameters (too long, too many words), not the source.
  return statusError(NAME, reply, detail, options.clock);
}

function windows(header: string | null): (number | undefined)[] {
  if (!header) return [];
  return header.split(',').map((v) => {
    const n = Number(v.trim());
    return Number.isFinite(n) && v.trim() !== '' ? n : undefined;
  });
}
