// A real engine (in-memory SQLite, scripted sources, manual clock) behind the fetch handler.

import { createEngine, type EngineOptions } from '../../src/engine/create-engine.js';
import type { FetchHandlerOptions } from '../../src/http/index.js';
import { createFetchHandler } from '../../src/http/index.js';
import { ManualClock, type Script, scriptedSource } from '../../src/testing/index.js';
import type { Engine, SearchSource } from '../../src/types/index.js';

export const RESULTS = {
  results: [
    { title: 'Cats', url: 'https://cats.test/', snippet: 'All about cats' },
    { title: 'More cats', url: 'https://cats.test/more', snippet: 'Even more' },
  ],
};

export interface Harness {
  engine: Engine;
  clock: ManualClock;
  key: string;
  handler: (request: Request) => Promise<Response>;
  errors: unknown[];
  call(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
}

export interface HarnessOptions {
  script?: Script;
  sources?: SearchSource[];
  credits?: number;
  engine?: Partial<EngineOptions>;
  http?: FetchHandlerOptions;
  /** Wraps the engine before the handler sees it (only for the unexpected-exception test). */
  wrap?: (engine: Engine) => Engine;
}

export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const sources = options.sources ?? [scriptedSource('primary', options.script ?? { cats: RESULTS })];
  const engine = createEngine({ sources, clock, router: { retries: 0 }, ...options.engine });
  await engine.admin.createOrganization('acme', { credits: options.credits ?? 100 });
  const key = await engine.admin.createApiKey('acme');
  const errors: unknown[] = [];
  const handler = createFetchHandler(options.wrap ? options.wrap(engine) : engine, {
    clock,
    onError: (error) => errors.push(error),
    ...options.http,
  });
  return {
    engine,
    clock,
    key,
    handler,
    errors,
    call(path, init = {}) {
      const { key: chosen, ...rest } = init;
      const headers = new Headers(rest.headers);
      const k = chosen === undefined ? key : chosen;
      if (k !== null && !headers.has('x-api-key') && !headers.has('authorization')) headers.set('authorization', `Bearer ${k}`);
      return handler(new Request(`http://websift.test${path}`, { ...rest, headers }));
    },
  };
}

export function postJson(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}
