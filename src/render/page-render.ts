// Renders one URL in a fresh browser context and applies the per-URL rules of the plain fetcher to the
// main document: type gating (header, then sniffed bytes), the size cap, the redirect limit, robots.txt
// for every URL the main frame navigates to, and a total deadline. Egress is policed by the proxy.

import type { Browser, BrowserContext, Page, Request, Response, Route } from 'playwright-core';
import { decodeBody } from '../fetch/charset.js';
import { statusLine } from '../fetch/load-page.js';
import { MAX_REDIRECTS } from '../fetch/redirects.js';
import { binaryReason, extensionRejection, judgeContentType, mimeEssence, sniffTextType } from '../fetch/type-gate.js';
import { FetchFailure } from '../ports/fetcher.js';
import type { RenderedPage } from '../ports/renderer.js';
import { BLOCKED_HEADER, type EgressProxy, UPSTREAM_ERROR_HEADER } from './egress-proxy.js';
import { trackNetwork } from './network-settle.js';
import { STEALTH_INIT_SCRIPT } from './stealth-script.js';

export interface PageRenderSettings {
  userAgent: string;
  /** Quiet period that counts as "the network settled". */
  settleMs: number;
  /** Longest wait for the network to settle after DOMContentLoaded. */
  maxSettleMs: number;
  proxy: EgressProxy;
  /** Throws FetchFailure('robots_disallowed') when robots.txt forbids the URL (null: robots off). */
  admit: (url: URL, signal: AbortSignal) => Promise<void>;
}

// Not needed to read a page, and the bulk of its bytes.
const SKIPPED_TYPES = new Set(['image', 'media', 'font']);
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'data:', 'blob:']);

const schemeOf = (url: string): string => /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase() ?? '';

/** Renders `url`; `signal` carries the caller's abort and the per-URL deadline. Throws FetchFailure. */
export async function renderPage(
  browser: Browser,
  url: URL,
  maxBytes: number,
  signal: AbortSignal,
  settings: PageRenderSettings,
): Promise<RenderedPage> {
  let failWith: (failure: FetchFailure) => void = () => {};
  const failed = new Promise<never>((_, reject) => (failWith = reject));
  let failure: FetchFailure | null = null;
  const fail = (f: FetchFailure): void => {
    failure ??= f;
    failWith(failure);
  };
  failed.catch(() => {});
  const onAbort = () => fail(abortFailure(signal));
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();

  let context: BrowserContext | undefined;
  const opening = newContext(browser, settings.userAgent);
  opening.catch(() => {});
  try {
    context = await Promise.race([opening, failed]);
    const work = (async () => {
      const page = await context.newPage();
      // Popups are not part of the page being read.
      context.on('page', (other) => void (other !== page && other.close().catch(() => {})));
      await guardRequests(context, page, settings, signal, fail);
      const main = watchMainDocument(page, maxBytes, settings, signal, fail);
      const network = trackNetwork(page);
      try {
        await page.goto(url.href, { waitUntil: 'domcontentloaded', timeout: 0 });
        await network.settled(settings.settleMs, settings.maxSettleMs);
        // robots.txt verdicts on redirect targets may still be on their way: the page is not done before them.
        await main.admitted();
        return await finish(page, main.response(), maxBytes);
      } finally {
        network.dispose();
      }
    })();
    return await Promise.race([work, failed]);
  } catch (error) {
    throw failure ?? toRenderFailure(error, settings.proxy, url);
  } finally {
    signal.removeEventListener('abort', onAbort);
    // Closing the context stops every request of the page, including a body still downloading.
    if (context) await context.close().catch(() => {});
    else void opening.then((late) => late.close()).catch(() => {}); // failed while it was being opened
  }
}

async function newContext(browser: Browser, userAgent: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    userAgent,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block', // requests served by a service worker would not pass through routing
    acceptDownloads: false,
  });
  await context.addInitScript(STEALTH_INIT_SCRIPT);
  return context;
}

/** Routing: schemes, skipped resource types, robots for main-frame navigations, no WebSockets. */
async function guardRequests(
  context: BrowserContext,
  page: Page,
  settings: PageRenderSettings,
  signal: AbortSignal,
  fail: (f: FetchFailure) => void,
): Promise<void> {
  await context.route('**/*', async (route: Route) => {
    const request = route.request();
    const target = request.url();
    // Rejections here only mean the context is already closing.
    if (!ALLOWED_SCHEMES.has(schemeOf(target))) return route.abort('blockedbyclient').catch(() => {});
    if (SKIPPED_TYPES.has(request.resourceType())) return route.abort('blockedbyclient').catch(() => {});
    if (isMainNavigation(page, request) && request.redirectedFrom() === null) {
      // A navigation the page itself starts (location.href = …) is admitted like the first URL.
      try {
        const next = new URL(target);
        const rejection = extensionRejection(next);
        if (rejection !== null) throw new FetchFailure('unsupported_content_type', rejection);
        await settings.admit(next, signal);
      } catch (error) {
        fail(error instanceof FetchFailure ? error : new FetchFailure('network', String(error)));
        return route.abort('blockedbyclient').catch(() => {});
      }
    }
    return route.continue().catch(() => {});
  });
  // WebSockets are never needed to read a page and keep the network from settling: refuse them all.
  await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'websift: WebSockets are disabled' }));
}

function isMainNavigation(page: Page, request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame() === page.mainFrame();
  } catch {
    return false; // service-worker requests have no frame
  }
}

/** Checks each main-document response as its headers arrive; keeps the last one. */
function watchMainDocument(
  page: Page,
  maxBytes: number,
  settings: PageRenderSettings,
  signal: AbortSignal,
  fail: (f: FetchFailure) => void,
): { response(): Response | null; admitted(): Promise<void> } {
  let last: Response | null = null;
  let redirects = 0;
  const admissions: Promise<void>[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (!isMainNavigation(page, request)) return;
    last = response;
    const headers = response.headers();
    const status = response.status();
    const blocked = headers[BLOCKED_HEADER];
    if (blocked !== undefined) return fail(new FetchFailure('blocked_address', decodeURIComponent(blocked)));
    const upstream = headers[UPSTREAM_ERROR_HEADER];
    if (upstream !== undefined) return fail(new FetchFailure('network', decodeURIComponent(upstream)));
    if (status >= 300 && status < 400 && headers.location !== undefined) {
      // Redirect hops are followed by the browser without routing: check the target as it is announced.
      if (++redirects > MAX_REDIRECTS) {
        return fail(new FetchFailure('too_many_redirects', `More than ${MAX_REDIRECTS} redirects`, status));
      }
      let next: URL;
      try {
        next = new URL(headers.location, response.url());
      } catch {
        return fail(new FetchFailure('network', `Invalid redirect target ${JSON.stringify(headers.location)}`, status));
      }
      const rejection = extensionRejection(next);
      if (rejection !== null) return fail(new FetchFailure('unsupported_content_type', rejection, status));
      admissions.push(
        settings.admit(next, signal).catch((e: unknown) => fail(e instanceof FetchFailure ? e : new FetchFailure('network', String(e)))),
      );
      return;
    }
    const essence = mimeEssence(headers['content-type']);
    if (judgeContentType(essence) === 'reject') {
      return fail(new FetchFailure('unsupported_content_type', `Unsupported content type ${essence}`, status));
    }
    const length = Number(headers['content-length']);
    if (Number.isFinite(length) && length > maxBytes) {
      return fail(new FetchFailure('too_large', `The page is ${length} bytes, over the ${maxBytes}-byte limit`, status));
    }
  });
  // An https hop refused by the proxy fails as a tunnel error; the proxy remembers why.
  page.on('requestfailed', (request) => {
    if (!isMainNavigation(page, request)) return;
    const target = new URL(request.url());
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    const why = settings.proxy.failureFor(target.hostname, port);
    if (why) fail(new FetchFailure(why.blocked ? 'blocked_address' : 'network', why.message));
  });
  return { response: () => last, admitted: async () => void (await Promise.all(admissions)) };
}

/** The rendered page, after the status, byte-sniff and size rules. */
async function finish(page: Page, response: Response | null, maxBytes: number): Promise<RenderedPage> {
  if (!response) throw new FetchFailure('network', 'The page produced no response');
  const status = response.status();
  if (status < 200 || status > 299) throw new FetchFailure('http', statusLine(status), status);
  const declared = response.headers()['content-type'];
  const body = await response.body().catch(() => null);
  if (body && body.length > maxBytes) {
    throw new FetchFailure('too_large', `The page is over the ${maxBytes}-byte limit`, status);
  }
  // A binary body is refused whatever type it was served as.
  const binary = body ? await binaryReason(body) : null;
  if (binary !== null) throw new FetchFailure('unsupported_content_type', binary, status);
  const essence = mimeEssence(declared) || (body ? sniffTextType(body) : 'text/html');
  // Scripts only run in (X)HTML; for JSON, text, XML… the document itself is the content.
  const isHtml = essence === 'text/html' || essence === 'application/xhtml+xml';
  const html = isHtml || !body ? await page.content() : decodeBody(body, declared).text;
  if (Buffer.byteLength(html, 'utf8') > maxBytes) {
    throw new FetchFailure('too_large', `The rendered page is over the ${maxBytes}-byte limit`, status);
  }
  return { url: page.url(), status, contentType: essence, html };
}

function abortFailure(signal: AbortSignal): FetchFailure {
  const reason: unknown = signal.reason;
  if (reason instanceof FetchFailure) return reason;
  const deadline = reason instanceof Error && reason.name === 'TimeoutError';
  return new FetchFailure('timeout', deadline ? 'The page did not render within the time limit' : 'Rendering was aborted');
}

/** Maps what Playwright throws to a per-URL failure. */
function toRenderFailure(error: unknown, proxy: EgressProxy, url: URL): FetchFailure {
  if (error instanceof FetchFailure) return error;
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  if (/Download is starting/i.test(message)) {
    return new FetchFailure('unsupported_content_type', 'The page is a download, not a document');
  }
  if (/ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY_CONNECTION_FAILED/.test(message)) {
    const why = proxy.failureFor(url.hostname, Number(url.port) || (url.protocol === 'https:' ? 443 : 80));
    if (why) return new FetchFailure(why.blocked ? 'blocked_address' : 'network', why.message, 0, { cause: error });
  }
  if (/Target.*closed|Browser.*closed|browser has disconnected|crash/i.test(message)) {
    return new FetchFailure('network', `The browser stopped while rendering (${message}); it is relaunched on the next request`, 0, {
      cause: error,
    });
  }
  return new FetchFailure('network', `Rendering failed: ${message}`, 0, { cause: error });
}
