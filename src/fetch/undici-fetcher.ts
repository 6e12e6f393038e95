// The default Fetcher: one GET over undici, through the address-checking connector, with the decoded
// body capped. No redirects are followed here (the page loader follows them, re-checking each hop).

import { Agent } from 'undici';
import { type Fetcher, FetchFailure, type FetchOptions, type RawResponse } from '../ports/fetcher.js';
import { DEFAULT_USER_AGENT } from '../project.js';
import { decodersFor, readBody } from './body-reader.js';
import { toFetchFailure } from './fetch-errors.js';
import { createGuardedConnector, type LookupFunction, systemLookup } from './guarded-connector.js';

export { DEFAULT_USER_AGENT };

/** Options of `createUndiciFetcher`. */
export interface UndiciFetcherOptions {
  /** Default false: loopback, private, link-local, CGNAT… targets are refused with 'blocked_address'. */
  allowPrivateNetwork?: boolean;
  /** Sent when the caller passes no `user-agent` header. */
  userAgent?: string;
  /** TCP/TLS connect timeout. Default 10 s. */
  connectTimeoutMs?: number;
  /** Time allowed for the response head after the request is sent. Default 10 s. */
  headersTimeoutMs?: number;
  /** Longest pause between two body chunks (an idle timer, not a total; the caller's signal is the total). Default 10 s. */
  bodyIdleTimeoutMs?: number;
  /** Exact `ip:port` endpoints exempt from the address policy, e.g. `['127.0.0.1:8080']` for one local server. */
  allowEndpoints?: string[];
  /** DNS resolver (dns.lookup-compatible). Default: the system resolver. */
  lookup?: LookupFunction;
}

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,text/*;q=0.7,*/*;q=0.1';

const lowerCaseKeys = (headers: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    // Repeated Content-Type headers: the last one wins (as in WHATWG's MIME type extraction).
    if (Array.isArray(value)) out[key] = key === 'content-type' ? (value[value.length - 1] ?? '') : value.join(', ');
    else out[key] = value;
  }
  return out;
}

/**
 * The engine's default `Fetcher`: one GET over undici through a connector that applies the address
 * policy to every connection (loopback, private, link-local, metadata… refused as `blocked_address`
 * unless allowed), with the decoded body capped. It follows no redirects (the engine does, re-checking
 * each hop). Build one to set its timeouts or resolver and pass it as `createEngine({ fetcher })`; close
 * it yourself with `close()`.
 * `fetch` rejects with a `FetchFailure` (`invalid_url`, `blocked_address`, `timeout`, `too_large`, `network`…).
 * @example
 * ```ts
 * const fetcher = createUndiciFetcher({ allowEndpoints: ['10.0.0.5:8080'], connectTimeoutMs: 5_000 });
 * const engine = createEngine({ fetcher });
 * ```
 */
export function createUndiciFetcher(options: UndiciFetcherOptions = {}): Fetcher {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const bodyTimeout = options.bodyIdleTimeoutMs ?? 10_000;
  const agent = new Agent({
    connect: createGuardedConnector({
      allowPrivateNetwork: options.allowPrivateNetwork ?? false,
      allowEndpoints: options.allowEndpoints ?? [],
      lookup: options.lookup ?? systemLookup,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    }),
    headersTimeout,
    bodyTimeout,
  });

  return {
    async fetch(url: string, fetchOptions: FetchOptions): Promise<RawResponse> {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new FetchFailure('invalid_url', `Not a valid URL: ${url}`);
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new FetchFailure('invalid_url', `Only http and https URLs can be fetched, not ${target.protocol}`);
      }
      const { signal, maxBytes } = fetchOptions;
      if (signal.aborted) throw toFetchFailure(signal.reason, signal);
      const headers = {
        'user-agent': userAgent,
        accept: ACCEPT,
        'accept-encoding': 'gzip, deflate, br',
        ...lowerCaseKeys(fetchOptions.headers),
      };

      let response: Awaited<ReturnType<Agent['request']>>;
      try {
        // Credentials in the URL are not sent (origin + path only); the fragment never is.
        response = await agent.request({
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: 'GET',
          headers,
          signal,
          headersTimeout,
          bodyTimeout,
        });
      } catch (err) {
        throw toFetchFailure(err, signal);
      }

      const status = response.statusCode;
      const responseHeaders = flattenHeaders(response.headers);
      if (status >= 300 && status < 400 && responseHeaders['location'] !== undefined) {
        // A redirect's body is never used: don't download it (it may be large, or never end).
        response.body.on('error', () => {});
        response.body.destroy();
        return { url: target.href, status, headers: responseHeaders, body: new Uint8Array(0) };
      }
      try {
        const declared = responseHeaders['content-length'];
        if (!fetchOptions.truncate && declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) {
          throw new FetchFailure(
            'too_large',
            `The page is ${declared} bytes, over the ${maxBytes}-byte limit; it was not downloaded`,
            status,
          );
        }
        const decoders = decodersFor(responseHeaders['content-encoding'], status);
        const body = await readBody(response.body, decoders, {
          maxBytes,
          truncate: fetchOptions.truncate ?? false,
          status,
          signal,
        });
        return { url: target.href, status, headers: responseHeaders, body };
      } catch (err) {
        // Stop the download: destroying the body closes the connection. undici then emits an abort
        // error on the body, which nobody else listens to any more.
        response.body.on('error', () => {});
        response.body.destroy();
        throw toFetchFailure(err, signal, status);
      }
    },

    async close(): Promise<void> {
      await agent.close();
    },
  };
}
