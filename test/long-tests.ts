// The long runs: left out of `npm test` (the quick everyday command, vitest project "quick") and run by
// `npm run test:all` (both projects), which CI runs (.ci/run). Each costs minutes of a 2-core machine
// or starts many processes: 4 `websift serve` instances taking 20,000 calls under SIGKILLs (~510 s),
// the books simulation's killed child instances and network faults, the quality guard's conversion of
// 280 WCXB pages, the packed tarball installed from the registry into a scratch project and compiled
// (minutes, and the network), pools closed at 100 points of their workers' start (~40 s). `npx vitest run <file>` still runs any of them alone. test/docs/test-commands.test.ts
// checks that every entry names a file.

export const LONG_TESTS: readonly string[] = [
  'test/scale/multi-process.test.ts',
  'test/scale/books-simulation.test.ts',
  'test/convert/quality-regression.test.ts',
  'test/package/consumer.test.ts',
  'test/conversion/close-while-loading.test.ts',
];
