// The README's in-process snippet, as written, runs twice on one database file: the second run finds
// the organization the first one created instead of failing with organization_exists.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'websift-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first ```ts block under the heading `## Use it in-process`. */
function snippet(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Use it in-process'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md: no ts block under "## Use it in-process"');
  return block[1]!;
}

/** The package's entry points, as the consumer's `import … from 'websift…'` resolves them (the sources, run by tsx). */
function runnable(code: string): string {
  return code.replace(/from '(websift(?:\/[a-z]+)?)'/g, (_, spec: string) => {
    const sub = spec === 'websift' ? 'index.ts' : `${spec.slice('websift/'.length)}/index.ts`;
    return `from ${JSON.stringify(pathToFileURL(join(root, 'src', sub)).href)}`;
  });
}

describe('the README in-process snippet', () => {
  it('runs twice against the same database file', async () => {
    const code = snippet();
    expect(code).toContain("from 'websift'");
    const file = join(dir, 'snippet.mts');
    writeFileSync(file, runnable(code));
    const tsx = import.meta.resolve('tsx');
    const run = () => promisify(execFile)(process.execPath, ['--import', tsx, file], { cwd: dir, timeout: 60_000 });

    for (const attempt of [1, 2]) {
      const { stdout } = await run();
      expect(stdout, `run ${attempt}`).toContain("'https://docs.example/start'"); // console.log of the result URLs
    }
    expect(existsSync(join(dir, 'websift.db'))).toBe(true);
  }, 150_000);
});
