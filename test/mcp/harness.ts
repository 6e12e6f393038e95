// A real engine (in-memory SQLite, scripted search source, manual clock, loopback page server) with
// the MCP endpoint on a loopback node:http server, as a host would mount it.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, type EngineOptions } from '../../src/engine/index.js';
import { createMcpFetchHandler, createMcpNodeHandler, type McpHandlerOptions } from '../../src/mcp/index.js';
import { ManualClock, type PageServer, type Script, scriptedSource, startPageServer } from '../../src/testing/index.js';
import type { Engine } from '../../src/types/index.js';
import { type Generation, httpClient, type McpClient } from './clients.js';

/** The one sentence of the long page about something else (section 33). */
export const LIGHTHOUSE = 'The lighthouse keeper writes storm warnings into the logbook every evening at dusk.';

/** A long page: 40 sections, ~35,000 characters of Markdown, one sentence of section 33 on another topic. */
export function longArticle(): string {
  const sections = Array.from(
    { length: 40 },
    (_, i) =>
      `<h2>Section ${i + 1}</h2>\n` +
      (i === 32 ? `<p>${LIGHTHOUSE}</p>\n` : '') +
      Array.from(
        { length: 6 },
        (_, j) =>
          `<p>Paragraph ${j + 1} of section ${i + 1} tells about tide pools, barnacles and anemones living between the tides, in words enough for a long page.</p>`,
      ).join('\n'),
  );
  return `<!doctype html><html><head><title>The long page</title></head><body><main><article><h1>The long page</h1>\n${sections.join('\n')}</article></main></body></html>`;
}

export const SHORT = `<!doctype html><html><head><title>Tide pools</title></head><body><main><article><h1>Tide pools</h1>
<p>Tide pools form where rocky shores hold seawater after the tide goes out, and their inhabitants must
survive changes in temperature, salinity and oxygen twice a day.</p></article></main></body></html>`;

export const SCRIPT: Script = {
  cats: {
    results: [
      { title: 'Cats', url: 'https://cats.test/', snippet: 'All about cats' },
      { title: 'More cats', url: 'https://cats.test/more', snippet: 'Even more' },
    ],
  },
};

export interface McpHarness {
  engine: Engine;
  clock: ManualClock;
  pages: PageServer;
  key: string;
  url: string;
  connect(generation: Generation, key?: string): Promise<McpClient>;
  /** Credits left and used of an organization (default acme); read by the admin, so not rate limited. */
  books(organization?: string): Promise<{ balance: number; used: number }>;
  close(): Promise<void>;
}

export interface McpHarnessOptions {
  credits?: number;
  mcp?: McpHandlerOptions;
  engine?: Partial<EngineOptions>;
}

export async function mcpHarness(options: McpHarnessOptions = {}): Promise<McpHarness> {
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const pages = await startPageServer({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/short.html': { body: SHORT },
    '/long.html': { body: longArticle() },
  });
  // 'tide pages' finds the two pages of the page server (for include_content).
  const found = (path: string, title: string) => ({ title, url: pages.url(path), snippet: `The ${title.toLowerCase()}` });
  const script: Script = { ...SCRIPT, 'tide pages': { results: [found('/long.html', 'Long page'), found('/short.html', 'Short page')] } };
  const engine = createEngine({
    // Two sources: an empty answer both state is confirmed; 'flaky' fails on the second, so its empty is not.
    sources: [scriptedSource('primary', script), scriptedSource('secondary', { ...script, flaky: { fail: 'down' } })],
    clock,
    router: { retries: 0 },
    allowPrivateNetwork: true,
    rateLimit: false, // many calls in a row; the rate-limit test sets its own
    ...options.engine,
  });
  await engine.admin.createOrganization('acme', { credits: options.credits ?? 100 });
  const key = await engine.admin.createApiKey('acme');
  const server: Server = createServer(createMcpNodeHandler(createMcpFetchHandler(engine, options.mcp)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const clients: McpClient[] = [];
  return {
    engine,
    clock,
    pages,
    key,
    url,
    async connect(generation, chosen = key) {
      const client = await httpClient(generation, url, chosen);
      clients.push(client);
      return client;
    },
    async books(organization = 'acme') {
      const org = (await engine.admin.listOrganizations()).find((o) => o.id === organization)!;
      return { balance: org.balance, used: org.used };
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pages.close();
      await engine.close();
    },
  };
}

/** The Markdown text of a tool result. */
export const textOf = (result: { content: { type: string; text?: string }[] }): string =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
