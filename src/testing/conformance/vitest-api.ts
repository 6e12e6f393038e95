// The conformance suites register vitest tests, yet `websift/testing` must stay importable without
// vitest (ManualClock, scriptedSource, the page server) and cheap to import outside a test run. So
// vitest is loaded only inside a vitest worker (vitest sets VITEST there); a suite called anywhere
// else says so instead of failing deep inside vitest.

type Vitest = typeof import('vitest');

const loaded: Vitest | undefined = process.env['VITEST'] ? await import('vitest') : undefined;

export function vitestApi(): Vitest {
  if (!loaded) {
    throw new Error(
      'websift/testing: the describe*Conformance suites register vitest tests; call them from a test file run by `vitest run`',
    );
  }
  return loaded;
}
