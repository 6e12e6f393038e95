// What every conformance suite shares: options, the known-gaps mechanism and a small seeded PRNG.
//
// A known gap is a conformance test an adapter is known to fail. It still runs, as `it.fails`: the
// run stays green while the gap is documented next to the adapter, and turns red the day the adapter
// is fixed, so the gap can't outlive the bug. Unknown titles in `knownGaps` fail the suite (typos).

import { seededRandom } from '../seeded-random.js';
import { vitestApi } from './vitest-api.js';

export interface ConformanceOptions {
  /** Titles of this suite's tests the adapter is known to fail (they run as expected failures). */
  knownGaps?: readonly string[];
}

/** Inside a test: skip it at run time (an optional adapter hook turned out to be missing). */
export interface TestTools {
  skip(note: string): void;
}

export type TestBody = (t: TestTools) => Promise<void>;

export interface SuiteKit {
  /** Registers one conformance test (as an expected failure when listed in knownGaps). */
  test(title: string, body: TestBody): void;
  /** Registers the check that every knownGaps title names a test of this suite. Call last. */
  finish(): void;
}

export function suiteKit(options: ConformanceOptions = {}): SuiteKit {
  const { it, expect } = vitestApi();
  const gaps = new Set(options.knownGaps ?? []);
  const titles = new Set<string>();
  return {
    test(title, body) {
      if (titles.has(title)) throw new Error(`conformance suite: duplicate test title "${title}"`);
      titles.add(title);
      const run = (ctx: { skip: (note?: string) => void }) => body({ skip: (note) => ctx.skip(note) });
      if (gaps.has(title)) it.fails(`${title} [known gap]`, run);
      else it(title, run);
    },
    finish() {
      it('knownGaps names only tests of this suite', () => {
        expect([...gaps].filter((g) => !titles.has(g))).toEqual([]);
      });
    },
  };
}

export { seededRandom };

/**
 * Resolves to the rejection reason of `call()`; fails when it fulfils, or when it throws
 * synchronously (a port method returns a promise: callers chain `.catch`, a sync throw escapes it).
 */
export async function rejectionOf(call: () => Promise<unknown>, what = 'the call'): Promise<unknown> {
  let promise: Promise<unknown>;
  try {
    promise = call();
  } catch (error) {
    throw new Error(`${what} threw synchronously instead of returning a rejected promise: ${String(error)}`);
  }
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    return error;
  }
  throw new Error(`${what} should reject, but resolved to ${JSON.stringify(value)}`);
}
