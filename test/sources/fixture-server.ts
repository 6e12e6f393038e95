// A real node:http server on 127.0.0.1 (port 0) answering from provider fixtures, recording each request.

import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
  /** The query (`q` of the URL, or of a form body). */
  q: string;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Send headers, then never finish the body (until the client goes away). */
  hang?: boolean;
}

export type Route = (req: Recorded) => Answer;

export interface FixtureServer {
  baseUrl: string;
  requests: Recorded[];
  /** Resolves when a request matching `test` has arrived (already or later). */
  waitFor(test: (r: Recorded) => boolean): Promise<Recorded>;
  close(): Promise<void>;
}

export function fixture(provider: string, file: string): string {
  return readFileSync(new URL(`./fixtures/${provider}/${file}`, import.meta.url), 'utf8');
}

export const json = (body: string, status = 200, headers: Record<string, string> = {}): Answer => ({
  status,
  body,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
});

export const html = (body: string, status = 200): Answer => ({ status, body, headers: { 'content-type': 'text/html; charset=utf-8' } });

export async function startFixtureServer(route: Route): Promise<FixtureServer> {
  const requests: Recorded[] = [];
  const waiters: { test: (r: Recorded) => boolean; resolve: (r: Recorded) => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const q = url.searchParams.get('q') ?? url.searchParams.get('srsearch') ?? new URLSearchParams(body).get('q') ?? '';
      const recorded: Recorded = { method: req.method ?? 'GET', url, headers: req.headers, body, q };
      requests.push(recorded);
      for (const w of waiters.splice(0))
        if (w.test(recorded)) w.resolve(recorded);
        else waiters.push(w);
      let answer: Answer;
      try {
        answer = route(recorded);
      } catch (error) {
        answer = { status: 599, body: String(error) };
      }
      reply(res, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    waitFor: (test) => {
      const seen = requests.find(test);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ test, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status ?? 200, answer.headers ?? {});
  if (answer.hang) {
    res.write(' '); // headers and a first byte out; the rest never comes
    return;
  }
  res.end(answer.body ?? '');
}
