// SearXNG JSON API (`GET {baseUrl}/search?format=json`). SearXNG is a metasearch engine: the instance's
// enabled engines answer, and `unresponsive_engines` lists the ones that failed this time.

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
  send,
  statusError,
  str,
} from './http.js';
import { filterResults, renderQuery } from './operators.js';

/** Options of `searxng`. */
export interface SearxngOptions extends RemoteSourceOptions {
  /** The instance, e.g. `http://localhost:8888` (SearXNG serves `/search` under it). */
  baseUrl: string;
  /** Comma-separated SearXNG categories (default: the instance's default, usually `general`). */
  categories?: string;
  /** Comma-separated engine names to use instead of the instance's defaults. */
  engines?: string;
  /** Search language, e.g. `en` or `all`. */
  language?: string;
  /** 0, 1 or 2. */
  safesearch?: 0 | 1 | 2;
}

const NAME = 'searxng';

/**
 * A search source over a SearXNG instance's JSON API (the instance must enable `format=json`; a 403
 * says it does not, as a `config` SourceError). Id `searxng`. A local instance needs no address-policy
 * exemption: only extraction is subject to it.
 *
 * Its `search` rejects with a `SourceError` (`reason` auth, quota, config, rate_limited, unavailable or
 * bad_response) that the router acts on: auth/quota/config suspend the source, rate_limited honours
 * Retry-After, the rest are retried and fall back to the next source. Sources are not subject to the
 * engine's address policy.
 * @throws {TypeError} at creation without a valid `baseUrl`.
 * @example
 * ```ts
 * createEngine({ sources: [searxng({ baseUrl: 'http://127.0.0.1:8888' })] });
 * ```
 */
export function searxng(options: SearxngOptions): SearchSource {
  const baseUrl = baseUrlOption(NAME, options?.baseUrl);
  return {
    id: options.id ?? NAME,
    async search(query, ctx) {
      const limit = checkContext(NAME, ctx);
      const params = new URLSearchParams({ q: renderQuery(query), format: 'json', pageno: '1' });
      if (options.categories) params.set('categories', options.categories);
      if (options.engines) params.set('engines', options.engines);
      if (options.language) params.set('language', options.language);
      if (options.safesearch !== undefined) params.set('safesearch', String(options.safesearch));
      const reply = await send(NAME, options, { url: `${baseUrl}/search?${params}`, headers: { accept: 'application/json' } }, ctx.signal);

      if (reply.status === 403) {
        // SearXNG answers 403 to format=json unless the operator enabled it.
        throw new SourceError(
          `${NAME}: HTTP 403 for format=json: the instance has JSON output disabled; add \`json\` to \`search.formats\` in its settings.yml`,
          { reason: 'config', status: 403 },
        );
      }
      if (reply.status < 200 || reply.status > 299) throw statusError(NAME, reply, '', options.clock);
      const body = parseJson(NAME, reply);
      if (!isRecord(body) || !Array.isArray(body.results)) throw badResponse(NAME, reply, 'no `results` array');

      const results = [];
      for (const item of body.results) {
        if (!isRecord(item)) continue;
        const url = absoluteUrl(item.url);
        if (!url) continue;
        results.push({ title: htmlToText(str(item.title)) || url, url, snippet: htmlToText(str(item.content)) });
      }
      const kept = filterResults(results, query).slice(0, limit);
      ctx.signal.throwIfAborted();
      if (kept.length > 0) return { results: kept };
      // Results that came back but failed our operator filter are no statement about the query.
      if (body.results.length > 0) return { results: [] };

      const unresponsive = unresponsiveEngines(body.unresponsive_engines);
      if (unresponsive.length > 0) {
        // Empty because engines failed is no answer at all: a failure, so it is retried and counted,
        // never mistaken for "no results".
        throw new SourceError(`${NAME}: no results and unresponsive engines: ${unresponsive.join('; ')}`, {
          reason: 'unavailable',
          status: reply.status,
        });
      }
      // Every engine answered and none found anything: SearXNG's own "no results".
      return { results: [], noResultsNotice: true };
    },
  };
}

/** `unresponsive_engines` is a list of `[engine, reason]` pairs. */
function unresponsiveEngines(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((pair) => (Array.isArray(pair) ? pair.map(String).join(': ') : String(pair)));
}
