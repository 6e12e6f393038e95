// Set-up for extract tests: a real page server on loopback and an engine allowed to reach it.

import { createEngine, type EngineOptions } from '../../src/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type PageRoute, type PageServer, startPageServer } from '../../src/testing/page-server.js';
import type { Engine } from '../../src/types/index.js';

export const article = (title: string, words = 60): string =>
  `<!doctype html><html><head><title>${title}</title></head><body>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <article><h1>${title}</h1>${Array.from(
    { length: 4 },
    (_, i) => `<p>${title} paragraph ${i + 1}: ${'lorem ipsum dolor sit amet consectetur '.repeat(words / 6)}</p>`,
  ).join('')}
  </article><footer>Copyright footer text</footer></body></html>`;

export const html = (body: string, status = 200): PageRoute => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body,
});

export interface ExtractSetup {
  engine: Engine;
  clock: ManualClock;
  server: PageServer;
  /** Requests the server saw for `path` (query ignored). */
  hits(path: string): number;
  close(): Promise<void>;
}

export async function extractSetup(
  routes: Record<string, PageRoute>,
  options: EngineOptions | ((server: PageServer) => EngineOptions) = {},
  clock = new ManualClock('2026-10-01T00:00:00Z'),
): Promise<ExtractSetup> {
  const server = await startPageServer(routes);
  const extra = typeof options === 'function' ? options(server) : options;
  const engine = createEngine({ clock, rateLimit: false, allowPrivateNetwork: true, robots: false, ...extra });
  return {
    engine,
    clock,
    server,
    hits: (path) => server.requests.filter((r) => r.path.split('?')[0] === path).length,
    async close() {
      await engine.close();
      await server.close();
    },
  };
}

export const ORG = { organization: 'acme' };
export const OTHER = { organization: 'globex' };

export async function withOrgs(engine: Engine, credits = 100): Promise<void> {
  await engine.admin.createOrganization(ORG.organization, { credits });
  await engine.admin.createOrganization(OTHER.organization, { credits });
}

export const balance = async (engine: Engine, org = ORG) => (await engine.usage(org)).credits.balance;

/**
 * Extracts `url` for `organization` until it converts: the engine's first conversion worker starts
 * then (and a page limit that cuts its start short restarts it), so tests with short page limits
 * measure their pages, not that start-up.
 */
export async function warmConversion(engine: Engine, url: string, organization = OTHER.organization): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const res = await engine.extract({ urls: [`${url}#warm-${i}`] }, { organization });
    if (res.results[0]?.success) return;
  }
  throw new Error('warmConversion: the page never converted');
}
