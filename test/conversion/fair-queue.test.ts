// The conversion pool's scheduler: organizations served in turn, a spare worker beyond the threads for an
// organization with nothing converting, a bounded backlog per organization, and a page that leaves when aborted.

import { describe, expect, it } from 'vitest';
import { DEFAULT_CONVERSION_BACKLOG, defaultConversionThreads } from '../../src/conversion/conversion-pool.js';
import { BacklogFullError, createFairQueue, type FairQueue } from '../../src/conversion/fair-queue.js';

const never = () => new AbortController().signal;
const flush = () => new Promise((r) => setImmediate(r));

/** Acquires for `org` and records, in `order`, the label once it holds a worker. */
function take(queue: FairQueue, org: string, label: string, order: string[], signal = never()) {
  const held = queue.acquire(org, signal).then((release) => {
    order.push(label);
    return release;
  });
  held.catch(() => {});
  return held;
}

describe('fair queue', () => {
  it('serves organizations in turn, whatever order their pages were queued in', async () => {
    const queue = createFairQueue({ slots: 1, spare: 0, backlog: 50 });
    const order: string[] = [];
    const first = await take(queue, 'a', 'a0', order);
    // Each page gives its worker back as soon as it has it.
    const quick = (org: string, label: string) => take(queue, org, label, order).then((release) => release());
    const done = [...['a1', 'a2', 'a3'].map((l) => quick('a', l)), ...['b1', 'b2'].map((l) => quick('b', l)), quick('c', 'c1')];
    first();
    await Promise.all(done);
    // `a` queued three pages before `b` and `c` queued any: it still converts only one per turn.
    expect(order).toEqual(['a0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('lets a lone organization use every thread, and keeps one spare worker for a newcomer (the default threads of a 2-core host)', async () => {
    const queue = createFairQueue({ slots: 2, backlog: 50 });
    const order: string[] = [];
    const attacker = [0, 1, 2, 3].map((i) => take(queue, 'attacker', `x${i}`, order));
    await flush();
    // A lone organization converts on every thread...
    expect(order).toEqual(['x0', 'x1']);
    expect(queue.pending('attacker')).toEqual({ queued: 2, running: 2 });
    // ...and another organization's page starts at once on the spare, without waiting for the attacker's pages.
    const victim = take(queue, 'victim', 'v0', order);
    await flush();
    expect(order).toEqual(['x0', 'x1', 'v0']);
    // A second page of the victim is not a newcomer's: it waits its turn like the attacker's.
    const victim2 = take(queue, 'victim', 'v1', order);
    await flush();
    expect(order).toEqual(['x0', 'x1', 'v0']);
    // When the victim's page is done, the spare is not the attacker's: every thread is still busy.
    (await victim)();
    await flush();
    expect(order).toEqual(['x0', 'x1', 'v0', 'v1']);
    (await victim2)();
    await flush();
    expect(order).toEqual(['x0', 'x1', 'v0', 'v1']);
    expect(queue.pending('victim')).toEqual({ queued: 0, running: 0 });
    // A thread the attacker gives back is the attacker's again.
    (await attacker[0]!)();
    await flush();
    expect(order).toEqual(['x0', 'x1', 'v0', 'v1', 'x2']);
  });

  it('serves two busy organizations in turn once their first pages hold every worker', async () => {
    const queue = createFairQueue({ slots: 4, backlog: 50 });
    const order: string[] = [];
    const a = Array.from({ length: 6 }, (_, i) => take(queue, 'a', `a${i}`, order));
    await flush();
    expect(order).toEqual(['a0', 'a1', 'a2', 'a3']);
    const b = Array.from({ length: 3 }, (_, i) => take(queue, 'b', `b${i}`, order));
    await flush();
    expect(order).toEqual(['a0', 'a1', 'a2', 'a3', 'b0']); // b0 on the spare
    // Two of a's pages finish: the first freed thread goes to b (a was served last), the next to a.
    (await a[0]!)();
    await flush();
    expect(order.slice(5)).toEqual([]); // 4 running with the spare: nothing starts until below the threads
    // Then in turn: b was served last (b0), so a first, then b.
    (await a[1]!)();
    await flush();
    expect(order.slice(5)).toEqual(['a4']);
    (await a[2]!)();
    await flush();
    expect(order.slice(5)).toEqual(['a4', 'b1']);
    expect(queue.pending('a')).toEqual({ queued: 1, running: 2 });
    expect(queue.pending('b')).toEqual({ queued: 1, running: 2 });
    void b;
  });

  it('with one thread, serves every organization in turn on it, and a newcomer on the spare', async () => {
    const queue = createFairQueue({ slots: 1, backlog: 50 });
    const order: string[] = [];
    const a = [0, 1].map((i) => take(queue, 'a', `a${i}`, order));
    await flush();
    expect(order).toEqual(['a0']);
    take(queue, 'b', 'b0', order);
    await flush();
    expect(order).toEqual(['a0', 'b0']);
    // With b0 converting, a has nothing converting again: its next page may start (two at most).
    (await a[0]!)();
    await flush();
    expect(order).toEqual(['a0', 'b0', 'a1']);
    take(queue, 'c', 'c0', order);
    await flush();
    expect(order).toEqual(['a0', 'b0', 'a1']);
  });

  it('without a spare, a newcomer waits for the next free thread', async () => {
    const queue = createFairQueue({ slots: 1, spare: 0, backlog: 50 });
    const order: string[] = [];
    const a0 = await take(queue, 'a', 'a0', order);
    take(queue, 'b', 'b0', order);
    await flush();
    expect(order).toEqual(['a0']);
    a0();
    await flush();
    expect(order).toEqual(['a0', 'b0']);
  });

  it('refuses a page past the organization’s backlog (the default) at once, and only that organization’s', async () => {
    const queue = createFairQueue({ slots: defaultConversionThreads(), backlog: DEFAULT_CONVERSION_BACKLOG });
    const order: string[] = [];
    const held = Array.from({ length: DEFAULT_CONVERSION_BACKLOG }, (_, i) => take(queue, 'a', `a${i}`, order));
    const refused = await queue.acquire('a', never()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BacklogFullError);
    expect((refused as Error).message).toContain(`${DEFAULT_CONVERSION_BACKLOG} pages`);
    // Another organization is not affected by it.
    const other = take(queue, 'b', 'b0', order);
    await flush();
    expect(order).toContain('b0');
    // Once one of `a`'s pages is done, `a` may queue again.
    (await held[0]!)();
    take(queue, 'a', 'again', order);
    expect(queue.pending('a').queued + queue.pending('a').running).toBe(DEFAULT_CONVERSION_BACKLOG);
    queue.close(new Error('end of test'));
    (await other)();
  });

  it('removes a page aborted while queued: it frees its place in the backlog and never takes a worker', async () => {
    const queue = createFairQueue({ slots: 1, spare: 0, backlog: 2 });
    const order: string[] = [];
    const first = await take(queue, 'a', 'a0', order);
    const controller = new AbortController();
    const queued = take(queue, 'a', 'a1', order, controller.signal);
    expect(queue.pending('a')).toEqual({ queued: 1, running: 1 });
    controller.abort(new Error('caller gave up'));
    await expect(queued).rejects.toThrow('caller gave up');
    expect(queue.pending('a')).toEqual({ queued: 0, running: 1 });
    const next = take(queue, 'a', 'a2', order); // room again in a backlog of 2
    first();
    await next;
    expect(order).toEqual(['a0', 'a2']);
  });

  it('rejects an already aborted signal without queuing, and a release given twice counts once', async () => {
    const queue = createFairQueue({ slots: 1, spare: 0, backlog: 5 });
    const controller = new AbortController();
    controller.abort(new Error('already'));
    await expect(queue.acquire('a', controller.signal)).rejects.toThrow('already');
    expect(queue.pending('a')).toEqual({ queued: 0, running: 0 });
    const order: string[] = [];
    const release = await take(queue, 'a', 'a0', order);
    const b = take(queue, 'b', 'b0', order);
    const c = take(queue, 'c', 'c0', order);
    release();
    release();
    await b;
    await flush();
    expect(order).toEqual(['a0', 'b0']); // the second release did not hand out a second worker
    (await b)();
    await c;
  });

  it('close rejects the queued pages and every later one', async () => {
    const queue = createFairQueue({ slots: 1, spare: 0, backlog: 5 });
    const order: string[] = [];
    await take(queue, 'a', 'a0', order);
    const queued = take(queue, 'b', 'b0', order);
    queue.close(new Error('closed'));
    await expect(queued).rejects.toThrow('closed');
    await expect(queue.acquire('c', never())).rejects.toThrow('closed');
  });

  it('rejects slots or backlogs that are not positive integers, and a negative spare', () => {
    expect(() => createFairQueue({ slots: 0, backlog: 5 })).toThrow(RangeError);
    expect(() => createFairQueue({ slots: 2, backlog: 1.5 })).toThrow(RangeError);
    expect(() => createFairQueue({ slots: 2, spare: -1, backlog: 5 })).toThrow(RangeError);
  });
});
