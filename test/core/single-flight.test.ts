import { describe, expect, it, vi } from 'vitest';
import { SingleFlight } from '../../src/core/single-flight.js';

/** A task that runs until `finish` is called, recording when it started. */
function gate(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    finish: () => finish(),
  };
}

const turns = () => new Promise((resolve) => setImmediate(resolve));

describe('SingleFlight', () => {
  it('runs the callers of a key one at a time, in arrival order; other keys do not wait', async () => {
    const flights = new SingleFlight();
    const log: string[] = [];
    const [a, b, c, other] = ['a', 'b', 'c', 'other'].map((n) => gate(log, n));
    const runs = [flights.run('k', a!.task), flights.run('k', b!.task), flights.run('k', c!.task), flights.run('j', other!.task)];
    await turns();
    expect(log).toEqual(['start a', 'start other']);
    c!.finish();
    b!.finish();
    a!.finish();
    other!.finish();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c', 'other']);
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start a', 'start other', 'start b', 'start c']);
    expect(flights.has('k')).toBe(false);
  });

  it('a completion wakes only the next waiter: each waiter adds one abort listener, however long the line', async () => {
    const flights = new SingleFlight();
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const log: string[] = [];
    const gates = ['a', 'b', 'c', 'd', 'e'].map((n) => gate(log, n));
    const runs = gates.map((g) => flights.run('k', g.task, controller.signal));
    for (const g of gates) {
      await turns();
      g.finish();
    }
    await Promise.all(runs);
    expect(add).toHaveBeenCalledTimes(gates.length - 1);
  });

  it('a waiter that aborts leaves the line, and the next still waits for the task ahead of it', async () => {
    const flights = new SingleFlight();
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(log, n));
    const controller = new AbortController();
    const runA = flights.run('k', a!.task);
    const runB = flights.run('k', b!.task, controller.signal);
    const runC = flights.run('k', c!.task);
    await turns();
    controller.abort(new Error('gone'));
    await expect(runB).rejects.toThrow('gone');
    await turns();
    expect(log).toEqual(['start a']); // c did not overtake a
    a!.finish();
    c!.finish();
    expect(await runA).toBe('a');
    expect(await runC).toBe('c');
    expect(log).toEqual(['start a', 'end a', 'start c', 'end c']);
  });

  it('makes no promise of its own for a caller alone with its key, and forgets the key when it is done', async () => {
    const flights = new SingleFlight();
    const RealPromise = globalThis.Promise;
    let made = 0;
    // Counts the `new Promise` of single-flight.ts while installed (async functions use the intrinsic one).
    class Counting<T> extends RealPromise<T> {
      constructor(executor: (resolve: (value: T | PromiseLike<T>) => void, reject: (reason?: unknown) => void) => void) {
        if (/src.core.single-flight\.ts/.test(new Error().stack ?? '')) made++;
        super(executor);
      }
    }
    globalThis.Promise = Counting as PromiseConstructor;
    let answer: string;
    try {
      answer = await flights.run('k', async () => 'alone');
    } finally {
      globalThis.Promise = RealPromise;
    }
    expect(answer).toBe('alone');
    expect(made).toBe(0);
    expect(flights.has('k')).toBe(false);
  });

  it('a failed task lets the next one run', async () => {
    const flights = new SingleFlight();
    const failing = flights.run('k', async () => {
      throw new Error('boom');
    });
    const next = flights.run('k', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('next');
  });
});
