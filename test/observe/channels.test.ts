// The tracing channels (src/channels.ts): what each publishes, in which order, and that nothing is built
// for a channel nobody listens to.

import { tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CallTrace,
  ChargeTrace,
  channels,
  claimSlot,
  HttpTrace,
  PageTrace,
  publishSettled,
  releaseSlot,
  SHAPE_KEEPERS,
  type Slotted,
  SourceTrace,
  traced,
  tracedSettledByWork,
} from '../../src/channels.js';
import { createEngine } from '../../src/index.js';
import { ManualClock, scriptedSource } from '../../src/testing/index.js';
import { article, extractSetup, html, ORG, withOrgs } from '../extract/helpers.js';

type Name = keyof typeof channels;

/** Records every asyncEnd (and start) of the named channels, as copies of their contexts. */
function record(...names: Name[]) {
  const events: { channel: Name; phase: 'start' | 'end'; context: any }[] = [];
  const subs = names.map((channel) => {
    const handlers = {
      start: (context: object) => events.push({ channel, phase: 'start', context: { ...context } }),
      end: () => {},
      asyncStart: () => {},
      asyncEnd: (context: object) => events.push({ channel, phase: 'end', context: { ...context } }),
      error: () => {},
    };
    channels[channel].subscribe(handlers as never);
    return () => channels[channel].unsubscribe(handlers as never);
  });
  return {
    events,
    ends: (name: Name) => events.filter((e) => e.channel === name && e.phase === 'end').map((e) => e.context),
    stop: () => subs.forEach((u) => u()),
  };
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

describe('tracing channels', () => {
  it('builds no context without subscribers, and one per call with', async () => {
    const channel = tracingChannel<unknown, { n: number }>('websift:test-unused');
    const make = vi.fn(() => ({ n: 1 }));
    const work = vi.fn(async (context: { n: number } | undefined) => context);
    expect(await traced(channel, make, work)).toBeUndefined();
    expect(make).not.toHaveBeenCalled();
    const seen: unknown[] = [];
    const onStart = (m: unknown) => seen.push(m);
    channel.start.subscribe(onStart);
    expect(await traced(channel, make, work)).toMatchObject({ n: 1 });
    expect(make).toHaveBeenCalledTimes(1);
    expect(seen).toMatchObject([{ n: 1 }]);
    channel.start.unsubscribe(onStart);
  });

  it("publishes tracePromise's events in its order, with result or error on the context", async () => {
    const ours = tracingChannel<unknown, { n: number }>('websift:test-order-ours');
    const node = tracingChannel<unknown, { n: number }>('websift:test-order-node');
    const log = (channel: typeof ours) => {
      const seen: string[] = [];
      const at = (phase: string) => (m: unknown) => {
        const c = m as { result?: unknown; error?: unknown };
        seen.push(
          `${phase}${'result' in c ? ` result=${String(c.result)}` : ''}${'error' in c ? ` error=${(c.error as Error).message}` : ''}`,
        );
      };
      const handlers = { start: at('start'), end: at('end'), asyncStart: at('asyncStart'), asyncEnd: at('asyncEnd'), error: at('error') };
      channel.subscribe(handlers);
      return { seen, stop: () => channel.unsubscribe(handlers) };
    };
    const a = log(ours);
    const b = log(node);
    const cases: ((c: unknown) => Promise<number>)[] = [
      async () => 7,
      async () => {
        throw new Error('late');
      },
      () => {
        throw new Error('early');
      },
    ];
    for (const work of cases) {
      await (async () => traced(ours, () => ({ n: 1 }), work))().catch(() => {});
      await new Promise<number>((resolve, reject) => {
        try {
          node.tracePromise(() => work(undefined), { n: 1 }).then(resolve, reject);
        } catch (error) {
          reject(error);
        }
      }).catch(() => {});
    }
    a.stop();
    b.stop();
    expect(a.seen).toEqual(b.seen);
    expect(a.seen).toContain('asyncEnd result=7');
    expect(a.seen).toContain('error error=early');
  });

  it('fills the context in by finish before asyncEnd or error is published: success, rejection, synchronous throw, and under a bound store', async () => {
    const channel = tracingChannel<unknown, { n: number; done?: string }>('websift:test-finish');
    const seen: string[] = [];
    const at = (phase: string) => (m: unknown) => seen.push(`${phase} ${(m as { done?: string }).done ?? '-'}`);
    const handlers = { start: at('start'), end: at('end'), asyncStart: at('asyncStart'), asyncEnd: at('asyncEnd'), error: at('error') };
    channel.subscribe(handlers);
    const finish = (c: { done?: string }, failed: boolean, value: unknown) => {
      c.done = failed ? `failed:${(value as Error).message}` : `ok:${String(value)}`;
    };
    expect(
      await traced(
        channel,
        () => ({ n: 1 }),
        async () => 7,
        finish,
      ),
    ).toBe(7);
    await expect(
      traced(
        channel,
        () => ({ n: 1 }),
        async () => {
          throw new Error('late');
        },
        finish,
      ),
    ).rejects.toThrow('late');
    expect(() =>
      traced(
        channel,
        () => ({ n: 1 }),
        () => {
          throw new Error('early');
        },
        finish,
      ),
    ).toThrow('early');
    const { AsyncLocalStorage } = await import('node:async_hooks');
    const store = new AsyncLocalStorage<number>();
    channel.start.bindStore(store, () => 1);
    expect(
      await traced(
        channel,
        () => ({ n: 1 }),
        async () => 8,
        finish,
      ),
    ).toBe(8);
    channel.start.unbindStore(store);
    channel.unsubscribe(handlers);
    expect(seen).toEqual([
      'start -',
      'end -',
      'asyncStart ok:7',
      'asyncEnd ok:7',
      'start -',
      'end -',
      'error failed:late',
      'asyncStart failed:late',
      'asyncEnd failed:late',
      'start -',
      'error failed:early',
      'end failed:early',
      'start -',
      'end -',
      'asyncStart ok:8',
      'asyncEnd ok:8',
    ]);
  });

  it("returns the work's own promise, its end published and finish applied before the caller's await resumes", async () => {
    const channel = tracingChannel<unknown, { n: number; done?: string; result?: unknown; error?: unknown }>('websift:test-own-promise');
    const seen: string[] = [];
    const at = (phase: string) => (m: unknown) => {
      const c = m as { done?: string; result?: unknown; error?: unknown };
      seen.push(`${phase} ${c.done} result=${String(c.result)} error=${(c.error as Error | undefined)?.message}`);
    };
    const handlers = { start: () => {}, end: () => {}, asyncStart: at('asyncStart'), asyncEnd: at('asyncEnd'), error: at('error') };
    channel.subscribe(handlers);
    const finish = (c: { done?: string }, failed: boolean) => {
      c.done = failed ? 'failed' : 'ok';
    };
    try {
      const answer = Promise.resolve(7);
      const returned = traced(
        channel,
        () => ({ n: 1 }),
        () => answer,
        finish,
      );
      expect(returned).toBe(answer);
      seen.push(`caller ${await returned}`);
      const refusal = Promise.reject(new Error('no'));
      const refused = traced(
        channel,
        () => ({ n: 1 }),
        () => refusal,
        finish,
      );
      expect(refused).toBe(refusal);
      await refused.catch((error: Error) => seen.push(`caller caught ${error.message}`));
    } finally {
      channel.unsubscribe(handlers);
    }
    expect(seen).toEqual([
      'asyncStart ok result=7 error=undefined',
      'asyncEnd ok result=7 error=undefined',
      'caller 7',
      'error failed result=undefined error=no',
      'asyncStart failed result=undefined error=no',
      'asyncEnd failed result=undefined error=no',
      'caller caught no',
    ]);
  });

  it("publishes traced()'s events when the work publishes its own settlement (tracedSettledByWork): success, rejection, synchronous throw, bound store, nobody listening", async () => {
    type Ctx = { n: number; done?: string };
    const run = async (channelName: string, own: boolean) => {
      const channel = tracingChannel<unknown, Ctx>(channelName);
      const seen: string[] = [];
      const at = (phase: string) => (m: unknown) => seen.push(`${phase} ${(m as Ctx).done ?? '-'}`);
      const handlers = { start: at('start'), end: at('end'), asyncStart: at('asyncStart'), asyncEnd: at('asyncEnd'), error: at('error') };
      channel.subscribe(handlers);
      const finish = (c: Ctx, failed: boolean, value: unknown) => {
        c.done = failed ? `failed:${(value as Error).message}` : `ok:${String(value)}`;
      };
      const flags: boolean[] = [];
      const make = () => ({ n: 1 });
      // As the engine's guarded(): the settlement from the reaction the work attaches to its promise anyway.
      const settling =
        <T>(body: () => Promise<T>) =>
        (c: Ctx | undefined, settles: boolean): Promise<T> => {
          flags.push(settles);
          const promise = body();
          if (settles)
            promise.then(
              (r) => publishSettled(channel, c!, false, r, finish),
              (e: unknown) => publishSettled(channel, c!, true, e, finish),
            );
          return promise;
        };
      const call = <T>(body: () => Promise<T>) =>
        own ? tracedSettledByWork(channel, make, settling(body), finish) : traced(channel, make, body, finish);
      const bodies: (() => Promise<number>)[] = [
        async () => 7,
        async () => {
          throw new Error('late');
        },
        () => {
          throw new Error('early');
        },
      ];
      const resumed = (what: string) => seen.push(`caller ${what}`);
      for (const body of bodies) {
        try {
          resumed(String(await call(body)));
        } catch (error) {
          resumed((error as Error).message);
        }
      }
      const { AsyncLocalStorage } = await import('node:async_hooks');
      const store = new AsyncLocalStorage<number>();
      channel.start.bindStore(store, () => 1);
      resumed(String(await call(async () => 8)));
      channel.start.unbindStore(store);
      channel.unsubscribe(handlers);
      resumed(String(await call(async () => 9))); // nobody listens: no context, nothing published
      return { seen, flags };
    };
    const mine = await run('websift:test-settled-by-work', true);
    const theirs = await run('websift:test-settled-by-traced', false);
    expect(mine.seen).toEqual(theirs.seen);
    expect(mine.seen).toContain('asyncEnd ok:7');
    expect(mine.seen).toContain('error failed:early');
    // The work publishes only on the plain path: under a bound store tracePromise does, and nobody listening has no context.
    expect(mine.flags).toEqual([true, true, true, false, false]);
  });

  it('links a context to its parent by a getter: the same object, not enumerable, not serialized', () => {
    const call = new CallTrace('search', 'acme', undefined);
    call.result = 'secret answer';
    const source = new SourceTrace('brave', 1, 'primary', call);
    expect(source.call).toBe(call);
    expect(Object.keys(source)).not.toContain('call');
    expect(JSON.stringify(source)).toBe('{"source":"brave","attempt":1,"role":"primary"}');
    expect({ ...source }).not.toHaveProperty('call');
    expect({ ...source }).toMatchObject({ source: 'brave', attempt: 1, role: 'primary' });
    const request = new HttpTrace('r1', 'GET', '/api/search', '/api/search', undefined, undefined);
    const callCtx = new CallTrace('search', 'acme', request);
    expect(callCtx.request).toBe(request);
    expect(Object.keys(callCtx)).not.toContain('request');
    expect(JSON.stringify(callCtx)).toBe('{"kind":"search","organization":"acme"}');
    expect(new SourceTrace('x', 1, 'primary', undefined).call).toBeUndefined();
  });

  it("keeps each context's shape from creation: traced's result and the subscribers' slots are fields it was made with", async () => {
    // A property added after creation lets a GC collect the context's hidden class and deopt the code
    // that saw it (docs/benchmarks.md, "Observability"): every own key is there when start is published.
    const slots = [claimSlot('a'), claimSlot('b')];
    const keysAt: Record<string, (string | symbol)[]> = {};
    const onStart = (m: unknown) => {
      keysAt.start = Reflect.ownKeys(m as object);
      (m as Slotted)[slots[0]!] = 1;
      (m as Slotted)[slots[1]!] = 2;
    };
    const onEnd = (m: unknown) => {
      keysAt.end = Reflect.ownKeys(m as object);
    };
    channels.charge.start.subscribe(onStart);
    channels.charge.asyncEnd.subscribe(onEnd);
    try {
      const context = () => new ChargeTrace('search', 'acme', 3, undefined);
      await traced(
        channels.charge,
        context,
        async () => 2,
        (c, failed, paid) => {
          if (!failed) c.charged = paid as number;
        },
      );
      expect(keysAt.end).toEqual(keysAt.start);
      expect(keysAt.start).toEqual(expect.arrayContaining(['charged', 'result', 'error', ...slots]));
    } finally {
      channels.charge.start.unsubscribe(onStart);
      channels.charge.asyncEnd.unsubscribe(onEnd);
      for (const slot of slots) releaseSlot(slot);
    }
  });

  it('keeps an instance of every context kind alive, with the keys and prototype of the contexts the engine makes', () => {
    // The kept instance holds the kind's hidden class through a GC with none in flight (docs/benchmarks.md, "Observability").
    const made = [
      new HttpTrace('r', 'GET', '/', 'other', 'tp', undefined),
      new CallTrace('extract', 'acme', undefined),
      new SourceTrace('s', 2, 'retry', undefined),
      new PageTrace('h', undefined),
      new ChargeTrace('extract', 'acme', 1, undefined),
    ];
    expect(SHAPE_KEEPERS).toHaveLength(made.length);
    made.forEach((context, i) => {
      expect(Object.getPrototypeOf(SHAPE_KEEPERS[i])).toBe(Object.getPrototypeOf(context));
      expect(Reflect.ownKeys(SHAPE_KEEPERS[i]!)).toEqual(Reflect.ownKeys(context));
    });
  });

  it('gives each subscriber its own slot, a symbol of its own once the shared ones are taken', () => {
    const taken = Array.from({ length: 6 }, (_, i) => claimSlot(`s${i}`));
    expect(new Set(taken).size).toBe(6);
    const context = new PageTrace('example.com', undefined) as unknown as Slotted;
    const own = Reflect.ownKeys(context);
    // The first four are fields of every context; the rest are not (a property added per context).
    expect(taken.filter((slot) => own.includes(slot))).toEqual(taken.slice(0, 4));
    for (const slot of taken) releaseSlot(slot);
    const again = claimSlot('again');
    expect(own).toContain(again);
    releaseSlot(again);
  });

  it('enters a store an APM bound to the start channel around the work', async () => {
    const { AsyncLocalStorage } = await import('node:async_hooks');
    const channel = tracingChannel<unknown, { n: number }>('websift:test-store');
    const store = new AsyncLocalStorage<number>();
    channel.start.bindStore(store, (c) => (c as { n: number }).n * 10);
    const seen = await traced(
      channel,
      () => ({ n: 4 }),
      async () => {
        await Promise.resolve();
        return store.getStore();
      },
    );
    channel.start.unbindStore(store);
    expect(seen).toBe(40);
  });

  it('search: the organization, each source with its role and outcome (failed primary, answering fallback), the charge, credits and outcome', async () => {
    const engine = createEngine({
      clock: new ManualClock('2026-03-01T12:00:00Z'),
      rateLimit: false,
      router: { retries: 0 },
      sources: [
        scriptedSource('first', { cats: { fail: 'down' } }),
        scriptedSource('second', { cats: { results: [{ title: 'Cats', url: 'https://cats.test/', snippet: 'meow' }] } }),
      ],
    });
    await engine.admin.createOrganization('acme', { credits: 10 });
    const r = record('search', 'source', 'charge');
    stop = r.stop;
    await engine.search({ q: 'cats' }, { organization: 'acme' });
    expect(r.events.map((e) => `${e.phase} ${e.channel}`)).toEqual([
      'start search',
      'start source',
      'end source',
      'start source',
      'end source',
      'start charge',
      'end charge',
      'end search',
    ]);
    expect(r.ends('source')).toMatchObject([
      { source: 'first', role: 'primary', attempt: 1, outcome: 'failed' },
      { source: 'second', role: 'fallback', attempt: 1, outcome: 'answered' },
    ]);
    expect(r.ends('charge')).toMatchObject([{ kind: 'search', organization: 'acme', reserved: 1, charged: 1 }]);
    expect(r.ends('search')).toMatchObject([
      { kind: 'search', organization: 'acme', credits: 1, outcome: 'success', cache: { lookups: 1, hits: 0 } },
    ]);
    // The repeat is free and served from the cache.
    await engine.search({ q: 'cats' }, { organization: 'acme' });
    expect(r.ends('search')[1]).toMatchObject({ credits: 0, outcome: 'success', cache: { hits: 1 } });
    await engine.close();
  });

  it('a refused call ends with its error code and no credits', async () => {
    const engine = createEngine({ rateLimit: false, sources: [scriptedSource('s', {})] });
    await engine.admin.createOrganization('poor', { credits: 0 });
    const r = record('search');
    stop = r.stop;
    await expect(engine.search({ q: 'cats' }, { organization: 'poor' })).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(r.ends('search')).toMatchObject([{ organization: 'poor', credits: 0, outcome: 'insufficient_credits' }]);
    await engine.close();
  });

  it('extract: each page with its host, outcome, fetched bytes and conversion time, and the charge', async () => {
    const s = await extractSetup({ '/ok': html(article('Channels')), '/gone': html('nope', 404) });
    await withOrgs(s.engine);
    const r = record('extract', 'page', 'charge');
    stop = r.stop;
    await s.engine.extract({ urls: [s.server.url('/ok'), s.server.url('/gone?secret=1')] }, ORG);
    const host = new URL(s.server.origin).host;
    const pages = r.ends('page').sort((a, b) => a.outcome.localeCompare(b.outcome));
    expect(pages).toHaveLength(2);
    expect(pages[0]).toMatchObject({ host, outcome: 'http' });
    expect(pages[1]).toMatchObject({ host, outcome: 'success' });
    expect(pages[1].bytes).toBe(Buffer.byteLength(article('Channels')));
    expect(pages[1].conversionMs).toBeGreaterThan(0);
    expect(JSON.stringify(pages)).not.toContain('secret');
    expect(r.ends('charge')).toMatchObject([{ kind: 'extract', charged: 1 }]);
    expect(r.ends('extract')).toMatchObject([{ organization: 'acme', credits: 1, outcome: 'success', cache: { lookups: 2, hits: 0 } }]);
    await s.close();
  });

  it('include_content: each page of a search on websift:page, with the search charging for the pages delivered', async () => {
    const s = await extractSetup({ '/a': html(article('Alpha')), '/b': html('', 500) }, (server) => ({
      sources: [
        scriptedSource('web', {
          pages: {
            results: [
              { title: 'A', url: server.url('/a'), snippet: 'a' },
              { title: 'B', url: server.url('/b'), snippet: 'b' },
            ],
          },
        }),
      ],
    }));
    await withOrgs(s.engine);
    const r = record('search', 'page', 'charge');
    stop = r.stop;
    await s.engine.search({ q: 'pages', include_content: true }, ORG);
    expect(
      r
        .ends('page')
        .map((p) => p.outcome)
        .sort(),
    ).toEqual(['http', 'success']);
    expect(r.ends('page').every((p) => p.host === new URL(s.server.origin).host)).toBe(true);
    expect(r.ends('charge')).toMatchObject([{ kind: 'search', reserved: 3, charged: 3 }]);
    expect(r.ends('search')).toMatchObject([{ credits: 3, outcome: 'success' }]);
    await s.close();
  });
});
