// What every engine of the books simulation shares, in the test process and in its child processes: the
// scripted search source (results on the loopback page server), the engine options, the calls and how
// one call's answer is recorded. Deterministic: a query always answers the same results.

import { createEngine, isIdempotentReplay, isWebsiftError } from '../../../src/index.js';
import type { PageRoute } from '../../../src/testing/index.js';
import { scriptedSource } from '../../../src/testing/index.js';
import type { Engine } from '../../../src/types/index.js';

/** Where the books live: a SQLite file, or a PostgreSQL URL (through the fault proxy) and its schema. */
export interface SimStorage {
  database: string;
  postgres?: { schema: string; leaseMs: number };
  lockWaitMs?: number;
}

export const PAGES = 12;

/** One call as a client makes it. `key`: its idempotency key (the same on every retry of it). */
export interface SimCall {
  n: number;
  op: 'search' | 'extract';
  org: string;
  params: Record<string, unknown>;
  key?: string;
}

/** What the caller was told: 200 with its charge, or the error's status and code (0: not a WebsiftError). */
export type SimAnswer = { ok: true; status: 200; credits: number; replay: boolean } | { ok: false; status: number; code: string };

/** Articles long enough to convert, plus one path that is gone (a per-URL error, never charged). */
export function pageRoutes(): Record<string, PageRoute> {
  const routes: Record<string, PageRoute> = { '/gone': { status: 404, body: 'gone' } };
  for (let i = 0; i < PAGES; i++) {
    const paragraphs = Array.from(
      { length: 6 },
      (_, p) => `<p>Paragraph ${p} of page ${i}: the ledger keeps exact books of every credit, and every answer says what it charged.</p>`,
    );
    routes[`/p/${i}`] = {
      body: `<!doctype html><html><head><title>Page ${i}</title></head><body><article><h1>Page ${i}</h1>${paragraphs.join('')}</article></body></html>`,
    };
  }
  return routes;
}

/** `q<i>` answers 3–6 results on the page server; `none<i>` answers nothing (a confirmed empty, charged). */
export function simEngine(storage: SimStorage, origin: string): Engine {
  const source = scriptedSource('sim', (query) => {
    const match = /^q(\d+)$/.exec(query.q);
    if (!match) return { results: [], noResultsNotice: true };
    const i = Number(match[1]);
    const results = Array.from({ length: 3 + (i % 4) }, (_, r) => ({
      title: `Result ${r} of ${query.q}`,
      url: `${origin}/p/${(i + r) % PAGES}`,
      snippet: `snippet ${r}`,
    }));
    return { results };
  });
  return createEngine({
    database: storage.database,
    ...(storage.postgres ? { postgres: storage.postgres } : {}),
    ...(storage.lockWaitMs === undefined ? {} : { lockWaitMs: storage.lockWaitMs }),
    sources: [source],
    rateLimit: false,
    allowPrivateNetwork: true,
  });
}

export async function runCall(engine: Engine, call: SimCall): Promise<SimAnswer> {
  const ctx = { organization: call.org, ...(call.key === undefined ? {} : { idempotencyKey: call.key }) };
  try {
    const answer = call.op === 'search' ? await engine.search(call.params as never, ctx) : await engine.extract(call.params as never, ctx);
    return { ok: true, status: 200, credits: answer.metadata.credits_used, replay: isIdempotentReplay(answer) };
  } catch (error) {
    if (isWebsiftError(error)) return { ok: false, status: error.status, code: error.code };
    return { ok: false, status: 0, code: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}
