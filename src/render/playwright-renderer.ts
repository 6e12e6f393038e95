// The stealth Renderer: playwright-core driving the system Chromium behind websift's egress proxy.
// One browser per renderer (lazy, relaunched after a crash), a fresh context per URL, bounded concurrency.

import { systemClock } from '../adapters/system-clock.js';
import { toFetchFailure } from '../fetch/fetch-errors.js';
import { type LookupFunction, systemLookup } from '../fetch/guarded-connector.js';
import { createRobotsPolicy, type RobotsPolicy } from '../fetch/robots.js';
import { extensionRejection } from '../fetch/type-gate.js';
import { createUndiciFetcher, DEFAULT_USER_AGENT } from '../fetch/undici-fetcher.js';
import { parseFetchableUrl } from '../fetch/url-check.js';
import { type Fetcher, FetchFailure } from '../ports/fetcher.js';
import type { RenderedPage, Renderer, RenderOptions } from '../ports/renderer.js';
import { timeLimit } from '../signals.js';
import type { Clock } from '../types/index.js';
import { BrowserHost } from './browser-host.js';
import { ConcurrencyGate } from './concurrency-gate.js';
import { type EgressProxy, startEgressProxy } from './egress-proxy.js';
import { chromiumArgs, DEFAULT_EXECUTABLE, desktopUserAgent } from './launch-options.js';
import { renderPage } from './page-render.js';

/** Options of `createPlaywrightRenderer`. */
export interface PlaywrightRendererOptions {
  /** Chromium binary. Default `/usr/bin/chromium` (Debian package `chromium`). */
  executablePath?: string;
  /** Default false: the page may not reach loopback, private, link-local or metadata addresses. */
  allowPrivateNetwork?: boolean;
  /** Exact `ip:port` endpoints exempt from the address policy (as in the fetcher), e.g. one test server. */
  allowEndpoints?: string[];
  /** DNS resolver used by the egress proxy and robots.txt fetches (dns.lookup-compatible). */
  lookup?: LookupFunction;
  /** Pages rendered at once. Default 2. */
  concurrency?: number;
  /** Total time for one URL: queueing, robots.txt, navigation and settling. Default 20 s. */
  timeoutMs?: number;
  /** Quiet period (no request in flight) that counts as "the network settled". Default 500 ms. */
  settleMs?: number;
  /** Longest wait for that quiet period after DOMContentLoaded. Default 5 s. */
  maxSettleMs?: number;
  /** The browser's user agent. Default: a desktop Chrome UA of the running version. */
  userAgent?: string;
  /** robots.txt policy for page URLs; false turns robots off. Default: websift's own, via the guarded fetcher. */
  robots?: RobotsPolicy | false;
  /** Whose rules robots.txt is read for (its first word is the product token). Default websift's UA. */
  robotsUserAgent?: string;
  /** Clock of the robots.txt cache. Default: the system clock. */
  clock?: Clock;
  /** How long a browser launch may take before the render fails as `network`. Default 30 s. */
  launchTimeoutMs?: number;
  /** Told of every connection of a page that the address policy refused (`host:port`, reason): for logs. */
  onBlocked?: (target: string, reason: string) => void;
}

/** The stealth renderer: `render` one URL in a fresh browser context; `close` stops the browser. */
export interface PlaywrightRenderer extends Renderer {
  /** How many browsers were launched so far (1 + relaunches after crashes). */
  readonly launches: number;
}

function positive(name: string, value: number | undefined, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < (integer ? 1 : 0) || (integer && !Number.isInteger(value))) {
    throw new RangeError(
      `createPlaywrightRenderer: ${name} must be ${integer ? 'an integer >= 1' : 'a number >= 0'}, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * The stealth-mode `Renderer`: playwright-core driving a system Chromium, every connection of the page
 * through an egress proxy that applies the address policy; robots.txt obeyed. Nothing is launched, and
 * playwright-core (an optional peer: `npm install playwright-core`) is not even loaded, until the first
 * render. Pass it as `createEngine({ renderer })` and close it yourself. A missing package or browser
 * fails each render as `network` with a message saying what to install.
 * @throws {RangeError} at creation for a number option out of range.
 * @example
 * ```ts
 * const renderer = createPlaywrightRenderer({ executablePath: '/usr/bin/chromium', concurrency: 4 });
 * const engine = createEngine({ renderer });
 * ```
 */
export function createPlaywrightRenderer(options: PlaywrightRendererOptions = {}): PlaywrightRenderer {
  const concurrency = positive('concurrency', options.concurrency, 2, true);
  const timeoutMs = positive('timeoutMs', options.timeoutMs, 20_000);
  const settleMs = positive('settleMs', options.settleMs, 500);
  const maxSettleMs = positive('maxSettleMs', options.maxSettleMs, 5_000);
  const launchTimeoutMs = positive('launchTimeoutMs', options.launchTimeoutMs, 30_000);
  const guard = {
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    allowEndpoints: [...(options.allowEndpoints ?? [])],
    lookup: options.lookup ?? systemLookup,
    connectTimeoutMs: 10_000,
  };
  const gate = new ConcurrencyGate(concurrency);
  let robotsFetcher: Fetcher | undefined;
  const robots: RobotsPolicy | null =
    options.robots === false
      ? null
      : (options.robots ??
        createRobotsPolicy({
          fetcher: (robotsFetcher = createUndiciFetcher({ ...guard, userAgent: options.robotsUserAgent ?? DEFAULT_USER_AGENT })),
          clock: options.clock ?? systemClock,
          userAgent: options.robotsUserAgent ?? DEFAULT_USER_AGENT,
        }));

  let proxy: Promise<EgressProxy> | null = null;
  const egress = (): Promise<EgressProxy> => (proxy ??= startEgressProxy(guard, options.onBlocked ? { onBlocked: options.onBlocked } : {}));
  const host = new BrowserHost({
    executablePath: options.executablePath ?? DEFAULT_EXECUTABLE,
    args: async () => chromiumArgs((await egress()).server),
    launchTimeoutMs,
  });
  let closed = false;

  async function admit(url: URL, signal: AbortSignal): Promise<void> {
    try {
      await robots?.check(url, signal);
    } catch (error) {
      throw toFetchFailure(error, signal);
    }
  }

  async function render(input: string, renderOptions: RenderOptions): Promise<RenderedPage> {
    if (closed) throw new FetchFailure('network', 'The renderer is closed');
    const url = parseFetchableUrl(input);
    const rejection = extensionRejection(url);
    if (rejection !== null) throw new FetchFailure('unsupported_content_type', rejection);
    const limit = timeLimit(timeoutMs, renderOptions.signal);
    try {
      return await renderWithin(url, renderOptions.maxBytes, limit.signal);
    } finally {
      limit.clear();
    }
  }

  async function renderWithin(url: URL, maxBytes: number, signal: AbortSignal): Promise<RenderedPage> {
    // robots.txt first: it needs no browser, and for a refused address it fails before one is launched.
    await admit(url, signal);
    let release: () => void;
    try {
      release = await gate.acquire(signal);
    } catch (error) {
      throw toFetchFailure(error, signal);
    }
    try {
      const browser = await host.get();
      const proxyServer = await egress();
      return await renderPage(browser, url, maxBytes, signal, {
        userAgent: options.userAgent ?? desktopUserAgent(browser.version()),
        settleMs,
        maxSettleMs,
        proxy: proxyServer,
        admit,
      });
    } finally {
      release();
    }
  }

  return {
    render,
    get launches() {
      return host.launches;
    },
    async close() {
      if (closed) return;
      closed = true;
      await host.close();
      const running = proxy;
      proxy = null;
      await (await running?.catch(() => null))?.close();
      await robotsFetcher?.close?.();
    },
  };
}
