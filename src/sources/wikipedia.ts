// Wikipedia (any MediaWiki) search API: `GET {baseUrl}/w/api.php?action=query&list=search&format=json`.
// MediaWiki reports API errors inside a 200 body (`{ "error": { "code", "info" } }`).
// It searches one wiki, so `site:` and `filetype:` are answered here, not by the API.

import { SourceError } from '../core/router/index.js';
import type { Clock, SearchQuery, SearchSource, SourceAnswer } from '../types/index.js';
import { htmlToText } from './html-text.js';
import {
  badResponse,
  baseUrlOption,
  checkContext,
  isRecord,
  parseJson,
  type RemoteSourceOptions,
  type Reply,
  retryAfterMs,
  send,
  statusError,
  str,
} from './http.js';
import { filterResults, renderQuery, urlPasses } from './operators.js';

/** Options of `wikipedia`. */
export interface WikipediaOptions extends RemoteSourceOptions {
  /** Wiki language code; default `en` → `https://en.wikipedia.org`. */
  language?: string;
  /** Overrides the wiki's origin (a proxy, a test server, another MediaWiki). */
  baseUrl?: string;
  /** Article URL template, `$1` = the title; default `{baseUrl}/wiki/$1`. */
  articleUrl?: string;
  /** Namespaces to search (`srnamespace`); default `[0]` (articles). */
  namespaces?: number[];
}

const MAX_LIMIT = 100;

/**
 * A search source over one wiki's MediaWiki search API (default English Wikipedia). Id
 * `wikipedia-<language>`. Wikimedia asks for a descriptive `userAgent` with contact details.
 *
 * Its `search` rejects with a `SourceError` (`reason` auth, quota, config, rate_limited, unavailable or
 * bad_response) that the router acts on: auth/quota/config suspend the source, rate_limited honours
 * Retry-After, the rest are retried and fall back to the next source. Sources are not subject to the
 * engine's address policy.
 * @throws {TypeError} at creation for a `language` that is not a wiki code, a bad `baseUrl`, or an
 *   `articleUrl` without `$1`.
 */
export function wikipedia(options: WikipediaOptions = {}): SearchSource {
  const language = options.language ?? 'en';
  if (!/^[a-z][a-z0-9-]{0,30}$/i.test(language)) throw new TypeError(`wikipedia: language is not a wiki language code: ${language}`);
  const name = `wikipedia-${language.toLowerCase()}`;
  const baseUrl = baseUrlOption(name, options.baseUrl, `https://${language.toLowerCase()}.wikipedia.org`);
  const articleUrl = options.articleUrl ?? `${baseUrl}/wiki/$1`;
  if (!articleUrl.includes('$1')) throw new TypeError(`${name}: articleUrl must contain $1`);
  const namespaces = (options.namespaces ?? [0]).join('|');
  const sample = titleUrl(articleUrl, 'Sample');

  return {
    id: options.id ?? name,
    async search(query, ctx) {
      const limit = checkContext(name, ctx);
      const skip = unanswerable(query, sample);
      if (skip) return skip;
      const params = new URLSearchParams({
        action: 'query',
        list: 'search',
        format: 'json',
        formatversion: '2',
        srsearch: renderQuery(query, { sites: false, filetypes: false }),
        srlimit: String(Math.min(limit, MAX_LIMIT)),
        srnamespace: namespaces,
        srprop: 'snippet',
        srinfo: 'totalhits',
        utf8: '1',
      });
      const reply = await send(
        name,
        options,
        { url: `${baseUrl}/w/api.php?${params}`, headers: { accept: 'application/json' } },
        ctx.signal,
      );
      if (reply.status < 200 || reply.status > 299) throw statusError(name, reply, '', options.clock);
      const body = parseJson(name, reply);
      if (isRecord(body) && isRecord(body.error)) throw apiError(name, reply, body.error, options.clock);
      const found = isRecord(body) && isRecord(body.query) ? body.query : null;
      if (!found || !Array.isArray(found.search)) throw badResponse(name, reply, 'no `query.search` array');

      const results = [];
      for (const hit of found.search) {
        if (!isRecord(hit) || typeof hit.title !== 'string' || hit.title === '') continue;
        results.push({ title: hit.title, url: titleUrl(articleUrl, hit.title), snippet: htmlToText(str(hit.snippet)) });
      }
      const kept = filterResults(results, query).slice(0, limit);
      ctx.signal.throwIfAborted();
      if (kept.length > 0) return { results: kept };
      const info = isRecord(found.searchinfo) ? found.searchinfo : {};
      return results.length === 0 && info.totalhits === 0 ? { results: [], noResultsNotice: true } : { results: [] };
    },
  };
}

/**
 * Operators this wiki can't satisfy are answered without a request, and without a notice: a `site:` for
 * another host or a `filetype:` (articles have no file extension) says nothing about the web.
 */
function unanswerable(query: SearchQuery, sampleUrl: string): SourceAnswer | null {
  if (query.filetypes.length > 0) return { results: [] };
  return urlPasses(sampleUrl, query) ? null : { results: [] };
}

/** MediaWiki titles use `_` for spaces; the rest is percent-encoded, keeping `:` `/` `,` readable. */
export function titleUrl(template: string, title: string): string {
  const path = encodeURIComponent(title.replace(/ /g, '_')).replace(/%3A/gi, ':').replace(/%2F/gi, '/').replace(/%2C/gi, ',');
  return template.replace('$1', path);
}

function apiError(name: string, reply: Reply, error: Record<string, unknown>, clock?: Pick<Clock, 'now'>): SourceError {
  const code = str(error.code);
  const message = `${name}: API error ${code}: ${str(error.info)}`;
  if (code === 'ratelimited') return new SourceError(message, { reason: 'rate_limited', status: reply.status });
  if (code === 'maxlag' || code.startsWith('internal_api_error') || /backend/i.test(code)) {
    const wait = retryAfterMs(reply.headers, clock);
    return new SourceError(message, { reason: 'unavailable', status: reply.status, ...(wait === undefined ? {} : { retryAfterMs: wait }) });
  }
  if (/denied|permission|badtoken|notloggedin|mwoauth/i.test(code))
    return new SourceError(message, { reason: 'auth', status: reply.status });
  return new SourceError(message, { reason: 'bad_response', status: reply.status });
}
