// A scripted SearXNG on loopback for the multi-process tests: the instances' real searxng sources ask
// it over HTTP. Answers are a pure function of the query, so every instance sees the same web:
//   `empty…`  → no results, every engine answered (SearXNG's own "no results" notice);
//   otherwise → 10 results whose URLs point at `pagesOrigin` (include_content fetches them).

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSearxng {
  readonly url: string;
  /** Queries answered so far (paid source calls, as a real provider would bill them). */
  readonly calls: number;
  close(): Promise<void>;
}

export async function startFakeSearxng(pagesOrigin: string): Promise<FakeSearxng> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    calls++;
    const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
    const results = q.startsWith('empty')
      ? []
      : Array.from({ length: 10 }, (_, i) => ({
          title: `${q} result ${i + 1}`,
          url: `${pagesOrigin}/page/${i % 4}`,
          content: `About ${q}, part ${i + 1}.`,
        }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ query: q, results, unresponsive_engines: [] }));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get calls() {
      return calls;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
