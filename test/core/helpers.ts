// Shared set-up for engine tests: a manual clock, scripted sources and the real router.

import { createEngine, type EngineOptions } from '../../src/index.js';
import type { Ledger, Settlement } from '../../src/ports/ledger.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { Engine, SourceAnswer, SourceResult } from '../../src/types/index.js';

export const result = (n: number, host = 'example.com'): SourceResult => ({
  title: `Result ${n}`,
  url: `https://${host}/page-${n}`,
  snippet: `Snippet ${n}`,
});

export const hits = (count: number, host?: string) => ({ results: Array.from({ length: count }, (_, i) => result(i + 1, host)) });
export const notice: SourceAnswer = { results: [], noResultsNotice: true };
export const silentEmpty: SourceAnswer = { results: [] };

export interface TestEngine {
  engine: Engine;
  clock: ManualClock;
  /** Runs a call while moving the clock through every sleep it waits on (retries, timeouts). */
  run<T>(call: Promise<T>): Promise<T>;
}

export function testEngine(options: EngineOptions = {}, clock = new ManualClock()): TestEngine {
  const engine = createEngine({
    clock,
    rateLimit: false,
    ...options,
    router: { hedging: false, random: () => 0.5, backoffMs: 100, retries: 2, ...options.router },
  });
  return { engine, clock, run: (call) => drive(clock, call) };
}

/** Advances the clock through pending sleeps until `call` settles. */
export const drive = <T>(clock: ManualClock, call: Promise<T>): Promise<T> => clock.drive(call);

/** Resolves to the rejection of `call` (fails the test when it resolves). */
export async function rejection(call: Promise<unknown>): Promise<any> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The ledger with its settle replaced (the others go to the real one): a dying or failing instance. */
export function withSettle(ledger: Ledger, settle: (settlement: Settlement) => Promise<number>): Ledger {
  return new Proxy(ledger, { get: (target, name) => (name === 'settle' ? settle : Reflect.get(target, name)) });
}
