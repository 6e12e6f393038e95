// vitest is a dev dependency: the conformance suites may use it, but no production entry point
// (websift, websift/http, websift/sources, websift/postgres, the CLI) may load it, and websift/testing must load it
// only inside a vitest worker. Checked in a child process with a resolve hook that reports every
// `vitest` import, and statically for the CLI (importing its main would run it).

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = (path: string) => join(root, 'src', path);

const hook = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module';
   register('data:text/javascript,' + encodeURIComponent("import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { if (/^vitest($|\\\\/)/.test(s)) writeSync(2, 'VITEST-LOADED ' + s + '\\\\n'); return next(s, c); }"));`,
)}`;

const child = `
  const entries = ${JSON.stringify(['index.ts', 'http/index.ts', 'sources/index.ts', 'testing/index.ts', 'postgres/index.ts', 'redis/index.ts'].map(src))};
  const loaded = [];
  for (const entry of entries) loaded.push(Object.keys(await import(entry)).length);
  const testing = await import(entries[3]);
  let message = '';
  try { testing.describeLedgerConformance('x', async () => ({})); } catch (error) { message = error.message; }
  console.log(JSON.stringify({ loaded, clock: typeof testing.ManualClock, message }));
  await import('vitest'); // on purpose: proves the hook reports a vitest import
`;

const STATIC_IMPORT = /^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gms;
const DYNAMIC_IMPORT = /\bimport\(\s*'([^']+)'\s*\)/g;

/** Every bare module specifier reachable from `entry` (through static imports, and dynamic ones too if asked). */
function packagesOf(entry: string, dynamic: boolean, seen = new Set<string>(), found = new Set<string>()): Set<string> {
  if (seen.has(entry)) return found;
  seen.add(entry);
  const text = readFileSync(entry, 'utf8');
  const specs = [...text.matchAll(STATIC_IMPORT), ...(dynamic ? text.matchAll(DYNAMIC_IMPORT) : [])].map((m) => m[1]!);
  for (const spec of specs) {
    if (spec.startsWith('.')) packagesOf(resolve(dirname(entry), spec.replace(/\.js$/, '.ts')), dynamic, seen, found);
    else found.add(spec);
  }
  return found;
}

describe('entry points and vitest', () => {
  it('production entry points never load vitest; websift/testing loads it only inside vitest', async () => {
    const env = { ...process.env };
    delete env['VITEST'];
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--import', hook, '--input-type=module', '-e', child],
      { cwd: root, env, timeout: 60_000 },
    );
    expect(stderr.match(/VITEST-LOADED/g)).toHaveLength(1); // only the child's deliberate import
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(report.loaded.every((n: number) => n > 0)).toBe(true);
    expect(report.clock).toBe('function');
    expect(report.message).toMatch(/call them from a test file run by `vitest run`/);
  }, 90_000);

  it('the CLI never imports vitest, statically or dynamically', () => {
    const packages = packagesOf(src('cli/main.ts'), true);
    expect(packages).toContain('better-sqlite3'); // the walk really followed the CLI's imports
    expect([...packages].filter((p) => p.startsWith('vitest'))).toEqual([]);
  });

  it('pg and ioredis are imported only lazily: by their adapters, and by createEngine only for a postgres:// database or a redis URL', () => {
    expect([...packagesOf(src('redis/index.ts'), true)]).toContain('ioredis'); // the walk sees the lazy import
    expect([...packagesOf(src('postgres/index.ts'), true)]).toContain('pg');
    expect([...packagesOf(src('index.ts'), true)]).toEqual(expect.arrayContaining(['pg', 'ioredis'])); // createEngine's URLs
    for (const entry of [
      'index.ts',
      'http/index.ts',
      'sources/index.ts',
      'testing/index.ts',
      'postgres/index.ts',
      'redis/index.ts',
      'cli/main.ts',
    ]) {
      expect([...packagesOf(src(entry), false)], entry).not.toContain('ioredis');
      expect([...packagesOf(src(entry), false)], entry).not.toContain('pg');
    }
    for (const entry of ['http/index.ts', 'sources/index.ts', 'testing/index.ts']) {
      expect([...packagesOf(src(entry), true)], entry).not.toContain('ioredis');
    }
  });

  it('an engine on the embedded defaults runs without loading pg or ioredis', async () => {
    const watch = `data:text/javascript,${encodeURIComponent(
      `import { register } from 'node:module';
       register('data:text/javascript,' + encodeURIComponent("import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { if (/^(pg|ioredis)$/.test(s)) writeSync(2, 'LOADED ' + s + '\\\\n'); return next(s, c); }"));`,
    )}`;
    const script = `
      const { createEngine } = await import(${JSON.stringify(src('index.ts'))});
      const engine = createEngine();
      await engine.admin.createOrganization('acme', { credits: 1 });
      console.log(JSON.stringify(await engine.usage({ organization: 'acme' })));
      await engine.close();
      await import('pg'); // on purpose: proves the hook reports it
    `;
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--import', watch, '--input-type=module', '-e', script],
      {
        cwd: root,
        timeout: 60_000,
      },
    );
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!).credits.balance).toBe(1);
    expect(stderr.match(/LOADED \S+/g)).toEqual(['LOADED pg']); // only the deliberate one
  }, 90_000);

  it('the conformance suites import vitest only lazily (so websift/testing stays importable without it)', () => {
    expect([...packagesOf(src('testing/index.ts'), true)]).toContain('vitest'); // the walk sees the lazy one
    expect([...packagesOf(src('testing/index.ts'), false)].filter((p) => p.startsWith('vitest'))).toEqual([]);
  });
});
