// The testing kit's documented pattern around real work: `await clock.drive(engine.extract(…))` with a real
// page (loopback page server, worker-pool conversion at its defaults) gets the page, and include_content its
// content, while the request's deadline stays on the manual clock, where a test can still reach it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { ExtractTimeoutError } from '../../src/errors.js';
import { ManualClock, type PageServer, scriptedSource, startPageServer } from '../../src/testing/index.js';
import type { Engine, ExtractResponse, SearchResponse } from '../../src/types/index.js';

const article = `<!doctype html><html><head><title>Drive</title></head><body><article><h1>Drive</h1>
  <p>${'A paragraph long enough to be the main content of the page, converted on a worker thread. '.repeat(8)}</p>
  </article></body></html>`;

let server: PageServer;
let clock: ManualClock;
let engine: Engine;
const ctx = { organization: 'acme' };

beforeAll(async () => {
  server = await startPageServer({ '/article': { headers: { 'content-type': 'text/html' }, body: article } });
  // A page that answers only once released (a fetch still under way when the deadline is reached).
  server.route('/never', () => {});
  clock = new ManualClock('2026-03-01T12:00:00Z');
  engine = createEngine({
    clock,
    allowEndpoints: [`127.0.0.1:${server.port}`],
    rateLimit: false,
    robots: false,
    sources: [scriptedSource('s', { drive: { results: [{ title: 'Drive', url: server.url('/article'), snippet: 'a page' }] } })],
  });
  await engine.admin.createOrganization('acme', { credits: 1000 });
});

afterAll(async () => {
  await engine.close();
  await server.close();
});

describe('ManualClock.drive around real I/O and worker conversion', () => {
  it('gives the page, not a 504', async () => {
    const answer = (await clock.drive(engine.extract({ urls: [server.url('/article')] }, ctx))) as ExtractResponse;
    expect(answer.results).toHaveLength(1);
    expect(answer.results[0]).toMatchObject({ success: true, status_code: 200 });
    expect(answer.results[0]!.markdown).toContain('A paragraph long enough');
    expect(answer.metadata.credits_used).toBe(1);
  });

  it('gives include_content its content, not content_error timeout', async () => {
    const answer = (await clock.drive(engine.search({ q: 'drive', include_content: true }, ctx))) as SearchResponse;
    expect(answer.results[0]!.content_error).toBeUndefined();
    expect(answer.results[0]!.content).toContain('A paragraph long enough');
  });

  it('moves on to the deadline once real work has been in flight for idleMs', async () => {
    const error = await clock.drive(engine.extract({ urls: [server.url('/never')] }, ctx), undefined, 200).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExtractTimeoutError);
  });

  it('still reaches the deadline when the test moves the clock past it', async () => {
    const before = clock.now();
    const call = engine.extract({ urls: [server.url('/never')] }, ctx).catch((e: unknown) => e);
    await clock.advance(30_000);
    const error = await call;
    expect(error).toBeInstanceOf(ExtractTimeoutError);
    expect(clock.now() - before).toBe(30_000);
  });
});

describe('ManualClock.track', () => {
  /** Real work (released after real time) raced against a sleep on the clock, as a deadline is. */
  function race(clock: ManualClock, tracked: boolean) {
    let release!: () => void;
    const work = new Promise<void>((r) => (release = r));
    if (tracked) clock.track(work);
    setTimeout(release, 30);
    return Promise.race([work.then(() => 'work'), clock.sleep(1_000).then(() => 'deadline')]);
  }

  it('holds drive while tracked work is in flight, and only then', async () => {
    const held = new ManualClock();
    expect(await held.drive(race(held, true))).toBe('work');
    expect(held.working).toBe(0);
    const untracked = new ManualClock();
    expect(await untracked.drive(race(untracked, false))).toBe('deadline');
  });

  it('does not hold advance', async () => {
    const clock = new ManualClock();
    const call = race(clock, true);
    await clock.advance(1_000);
    expect(await call).toBe('deadline');
  });
});
