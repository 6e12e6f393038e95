import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from '../../src/render/concurrency-gate.js';

const never = new AbortController().signal;

describe('ConcurrencyGate', () => {
  it('admits up to the limit and queues the rest in order', async () => {
    const gate = new ConcurrencyGate(2);
    const order: number[] = [];
    const a = await gate.acquire(never);
    const b = await gate.acquire(never);
    const c = gate.acquire(never).then((release) => (order.push(3), release));
    const d = gate.acquire(never).then((release) => (order.push(4), release));
    await Promise.resolve();
    expect(gate.active).toBe(2);
    expect(order).toEqual([]);
    a();
    const releaseC = await c;
    expect(order).toEqual([3]);
    b();
    (await d)();
    releaseC();
    expect(gate.active).toBe(0);
  });

  it('releasing twice frees one slot only', async () => {
    const gate = new ConcurrencyGate(1);
    const release = await gate.acquire(never);
    release();
    release();
    await gate.acquire(never);
    expect(gate.active).toBe(1);
  });

  it('an aborted waiter leaves the queue and never takes a slot', async () => {
    const gate = new ConcurrencyGate(1);
    const first = await gate.acquire(never);
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    first();
    expect(gate.active).toBe(0);
    await gate.acquire(never);
    expect(gate.active).toBe(1);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new ConcurrencyGate(0)).toThrow(RangeError);
    expect(() => new ConcurrencyGate(1.5)).toThrow(RangeError);
  });
});
