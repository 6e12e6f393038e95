// DuckDuckGo's no-JavaScript HTML endpoint (`POST {baseUrl}/html/`, form field `q`). There is no API:
// the page is parsed with linkedom. Its empties are known to be unreliable (phrase-heavy queries come
// back empty although results exist), hence `unreliableEmpties`.

import { parseHTML } from 'linkedom';
import { SourceError } from '../core/router/index.js';
import type { SearchSource, SourceResult } from '../types/index.js';
import { cleanText } from './html-text.js';
import { absoluteUrl, badResponse, baseUrlOption, checkContext, type RemoteSourceOptions, send, statusError } from './http.js';
import { filterResults, renderQuery } from './operators.js';

/** Options of `duckduckgo`. */
export interface DuckduckgoOptions extends RemoteSourceOptions {
  /** Default `https://html.duckduckgo.com`. */
  baseUrl?: string;
  /** Region (`kl`), e.g. `us-en`; default `wt-wt` (no region). */
  region?: string;
}

const NAME = 'duckduckgo';

type El = {
  textContent: string | null;
  getAttribute(n: string): string | null;
  querySelector(s: string): El | null;
  classList: { contains(c: string): boolean };
};

/**
 * A search source over DuckDuckGo's no-JavaScript HTML page (no API key; the page is parsed). Id
 * `duckduckgo`. Its empty answers are marked unreliable, so they count less toward confirming an empty
 * search. A CAPTCHA page is a `rate_limited` SourceError.
 *
 * Its `search` rejects with a `SourceError` (`reason` auth, quota, config, rate_limited, unavailable or
 * bad_response) that the router acts on: auth/quota/config suspend the source, rate_limited honours
 * Retry-After, the rest are retried and fall back to the next source. Sources are not subject to the
 * engine's address policy.
 * @throws {TypeError} at creation with a `baseUrl` that is not a URL.
 */
export function duckduckgo(options: DuckduckgoOptions = {}): SearchSource {
  const baseUrl = baseUrlOption(NAME, options.baseUrl, 'https://html.duckduckgo.com');
  return {
    id: options.id ?? NAME,
    unreliableEmpties: true,
    async search(query, ctx) {
      const limit = checkContext(NAME, ctx);
      const form = new URLSearchParams({ q: renderQuery(query), b: '', kl: options.region ?? 'wt-wt' });
      const reply = await send(
        NAME,
        options,
        {
          url: `${baseUrl}/html/`,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
          body: form.toString(),
        },
        ctx.signal,
      );
      // DuckDuckGo refuses bots with 403, or with a 202 (or 200) page holding its challenge form.
      if (reply.status === 403 || reply.status === 429) {
        throw new SourceError(`${NAME}: HTTP ${reply.status}: refused as automated traffic`, {
          reason: 'rate_limited',
          status: reply.status,
        });
      }
      if (reply.status < 200 || reply.status > 299) throw statusError(NAME, reply, '', options.clock);
      const { document } = parseHTML(reply.text);
      if (document.querySelector('#challenge-form, .anomaly-modal__modal, form[action*="anomaly"]')) {
        throw new SourceError(`${NAME}: served a bot challenge (CAPTCHA)`, { reason: 'rate_limited', status: reply.status });
      }

      const results: SourceResult[] = [];
      for (const node of document.querySelectorAll('.result') as unknown as El[]) {
        if (node.classList.contains('result--ad') || node.classList.contains('result--no-result')) continue;
        const link = node.querySelector('.result__a');
        if (!link) continue;
        const url = unwrapRedirect(link.getAttribute('href'));
        if (!url) continue;
        const snippet = node.querySelector('.result__snippet');
        results.push({ title: cleanText(link.textContent ?? '') || url, url, snippet: cleanText(snippet?.textContent ?? '') });
      }
      const kept = filterResults(results, query).slice(0, limit);
      ctx.signal.throwIfAborted();
      if (kept.length > 0) return { results: kept };
      if (results.length > 0) return { results: [] }; // all filtered by our operators: no statement
      if (document.querySelector('.no-results, .result--no-result')) return { results: [], noResultsNotice: true };
      // A results page with neither results nor the notice is an empty answer without a statement;
      // anything else is not a DuckDuckGo results page at all.
      if (document.querySelector('#links, .results, .serp__results, form[name="x"]')) return { results: [] };
      throw badResponse(NAME, reply, 'not a DuckDuckGo results page');
    },
  };
}

/** Result links go through `//duckduckgo.com/l/?uddg=<target>&rut=…`; the target is the result. */
export function unwrapRedirect(href: string | null): string | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href, 'https://duckduckgo.com/');
  } catch {
    return null;
  }
  if (/(^|\.)duckduckgo\.com$/.test(url.hostname)) {
    if (url.pathname === '/l/' || url.pathname === '/l') return absoluteUrl(url.searchParams.get('uddg'));
    return null; // other DuckDuckGo links (ads via /y.js, settings) are not results
  }
  return absoluteUrl(url.href);
}
