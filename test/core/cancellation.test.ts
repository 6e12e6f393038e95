// ctx.signal cancels search and extract: the work in progress stops (source calls, page fetches), the
// call rejects with the signal's reason, and nothing is charged or counted.

import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { Engine } from '../../src/types/index.js';
import { article, balance, type ExtractSetup, extractSetup, html, ORG, withOrgs } from '../extract/helpers.js';

const hit = (n: number) => ({ title: `T${n}`, url: `https://example.com/${n}`, snippet: `s${n}` });

class Cancelled extends Error {
  override name = 'Cancelled';
}

let engine: Engine | undefined;
let setup: ExtractSetup | undefined;
afterEach(async () => {
  await engine?.close();
  await setup?.close();
  engine = setup = undefined;
});

describe('search', () => {
  it('an abort while a source is answering stops the source and charges nothing', async () => {
    let sourceSignal: AbortSignal | undefined;
    const hanging = scriptedSource('a', () => ({ hang: true }));
    const spy = {
      ...hanging,
      search: (q: Parameters<typeof hanging.search>[0], ctx: Parameters<typeof hanging.search>[1]) => {
        sourceSignal = ctx.signal;
        return hanging.search(q, ctx);
      },
    };
    engine = createEngine({ clock: new ManualClock('2026-10-01T00:00:00Z'), rateLimit: false, sources: [spy] });
    await withOrgs(engine);
    const controller = new AbortController();
    const call = engine.search({ q: 'hello' }, { ...ORG, signal: controller.signal });
    while (!sourceSignal) await new Promise((r) => setImmediate(r));
    expect(sourceSignal.aborted).toBe(false);
    controller.abort(new Cancelled('client left'));
    await expect(call).rejects.toBeInstanceOf(Cancelled);
    expect(sourceSignal?.aborted).toBe(true);
    expect(await balance(engine)).toBe(100);
    const usage = await engine.usage(ORG);
    expect(usage.requests.total).toBe(0);
    expect(usage.credits.used).toBe(0);
  });

  it('an already aborted signal rejects before any work', async () => {
    const source = scriptedSource('a', () => ({ results: [hit(1)] }));
    engine = createEngine({ clock: new ManualClock('2026-10-01T00:00:00Z'), rateLimit: false, sources: [source] });
    await withOrgs(engine);
    await expect(engine.search({ q: 'x' }, { ...ORG, signal: AbortSignal.abort(new Cancelled()) })).rejects.toBeInstanceOf(Cancelled);
    expect(source.calls).toHaveLength(0);
    expect(await balance(engine)).toBe(100);
  });

  it('an abort during include_content stops the page fetches and charges nothing', async () => {
    let pageClosed!: () => void;
    const closed = new Promise<void>((r) => (pageClosed = r));
    setup = await extractSetup({
      '/slow': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body><p>start');
        req.socket.once('close', pageClosed); // never ends on its own
      },
    });
    const source = scriptedSource('a', () => ({ results: [{ title: 'S', url: setup!.server.url('/slow'), snippet: 's' }] }));
    engine = createEngine({ clock: setup.clock, rateLimit: false, allowPrivateNetwork: true, robots: false, sources: [source] });
    await withOrgs(engine);
    const controller = new AbortController();
    const call = engine.search({ q: 'x', include_content: true }, { ...ORG, signal: controller.signal });
    while (setup.hits('/slow') === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Cancelled());
    await expect(call).rejects.toBeInstanceOf(Cancelled);
    await closed; // the fetch was torn down, not left to run
    expect(await balance(engine)).toBe(100);
  });

  it('a second identical call waiting behind the first stops waiting when it is aborted', async () => {
    const source = scriptedSource('a', () => ({ hang: true }));
    engine = createEngine({ clock: new ManualClock('2026-10-01T00:00:00Z'), rateLimit: false, sources: [source] });
    await withOrgs(engine);
    const first = new AbortController();
    const second = new AbortController();
    const a = engine.search({ q: 'same' }, { ...ORG, signal: first.signal });
    const b = engine.search({ q: 'same' }, { ...ORG, signal: second.signal });
    while (source.calls.length === 0) await new Promise((r) => setImmediate(r));
    second.abort(new Cancelled('second'));
    await expect(b).rejects.toThrow('second');
    first.abort(new Cancelled('first'));
    await expect(a).rejects.toThrow('first');
    expect(source.calls).toHaveLength(1);
  });
});

describe('extract', () => {
  it('an abort stops the page fetch, rejects with the reason and charges nothing', async () => {
    let pageClosed!: () => void;
    const closed = new Promise<void>((r) => (pageClosed = r));
    setup = await extractSetup({
      '/fast': html(article('Fast')),
      '/slow': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body><p>start');
        req.socket.once('close', pageClosed);
      },
    });
    await withOrgs(setup.engine);
    const controller = new AbortController();
    const urls = [setup.server.url('/fast'), setup.server.url('/slow')];
    const call = setup.engine.extract({ urls }, { ...ORG, signal: controller.signal });
    while (setup.hits('/slow') === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Cancelled());
    await expect(call).rejects.toBeInstanceOf(Cancelled);
    await closed;
    // The page that was delivered before the abort is not charged either: the request had no answer.
    expect(await balance(setup.engine)).toBe(100);
    expect((await setup.engine.usage(ORG)).requests.total).toBe(0);
  });
});
