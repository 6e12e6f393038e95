// The README's test commands are the real ones: its quick start is two commands, the second `npm test`
// (the quick suite); it names `npm run test:all`, which is what CI (.ci/run) runs; and every long run
// left out of `npm test` names a test file (a renamed one would otherwise fall out of both suites).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONG_TESTS } from '../long-tests.js';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('test commands', () => {
  const readme = read('README.md');
  const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;

  it("the README's quick start is two commands, the second `npm test`, the quick project", () => {
    const first = /```sh\n([\s\S]*?)```/.exec(readme)![1]!.trim().split('\n');
    expect(first).toEqual(['npm install && npm run demo', 'npm test']);
    expect(scripts['test']).toBe('vitest run --project quick');
  });

  it('CI runs `npm run test:all`, the full suite, which the README names as what CI runs', () => {
    expect(scripts['test:all']).toBe('vitest run');
    const ci = read('.ci/run')
      .split('\n')
      .filter((line) => !line.startsWith('#'));
    expect(ci.filter((line) => /\bnpm (run )?test\b/.test(line))).toEqual(['WEBSIFT_REQUIRE_SERVICES=1 npm run test:all']);
    expect(readme).toMatch(/CI \(`\.ci\/run`\) runs the full suite, `npm run test:all`/);
  });

  it('every long run is a test file', () => {
    expect(LONG_TESTS.filter((file) => !existsSync(join(root, file)))).toEqual([]);
  });
});
