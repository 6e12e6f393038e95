// The "done when": the packed tarball, installed into a scratch project, typechecks for a strict
// consumer (skipLibCheck false, lib es2023 only, no @types but node) under node16 and bundler
// resolution, runs (an in-process search and extract on the embedded defaults, with a scripted source
// and a loopback page server from websift/testing), and loads from CommonJS; CommonJS TypeScript (a `.cts`
// file under node16, a CommonJS project under node10 resolution) compiles against every entry it can require.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const typesNode = (
  JSON.parse(execFileSync(npm, ['pkg', 'get', 'devDependencies'], { cwd: root, encoding: 'utf8' })) as Record<string, string>
)['@types/node'];
let dir: string;
/** The consumer's environment: without vitest's variables (websift/testing loads vitest when VITEST is set). */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));

const compilerOptions = {
  strict: true,
  skipLibCheck: false,
  lib: ['es2023'],
  types: ['node'],
  target: 'es2022',
  outDir: 'out',
};

const consumer = `
import { createEngine, isNoResults, isWebsiftError, type ErrorCode, type ExtractParams, type SearchAnswer, type SearchParams } from 'websift';
import { scriptedSource, startPageServer } from 'websift/testing';

// @ts-expect-error q must be a string
const badType: SearchParams = { q: 42 };
// @ts-expect-error an unknown field (a typo) is not a search parameter
const typo: SearchParams = { qq: 'typo' };
const links: ExtractParams = { urls: ['https://example.com/'], include_links: true };
void badType; void typo; void links;

/** Compile-time: metadata.status narrows metadata; 'id' in r narrows the answer. */
export function describeAnswer(r: SearchAnswer): string {
  if (r.metadata.status === 'no_results') {
    const charged: boolean = r.metadata.charged;
    return 'empty, charged ' + String(charged);
  }
  // @ts-expect-error a success answer's metadata has no 'charged'
  void r.metadata.charged;
  return 'id' in r ? r.id + ' ' + String(r.results.length) : 'impossible';
}

/** Compile-time: isNoResults narrows the answer itself. */
export function describeWithGuard(r: SearchAnswer): string {
  if (isNoResults(r)) return r.message + String(r.metadata.charged);
  return r.id + r.engines[0];
}

const pages = await startPageServer({
  '/article': { headers: { 'content-type': 'text/html' }, body: '<html lang="en"><head><title>Hello</title></head><body><article><h1>Hello</h1><p>A paragraph of several words, enough to be the main content of this page.</p></article></body></html>' },
});
const engine = createEngine({
  allowPrivateNetwork: true,
  sources: [scriptedSource('scripted', () => ({ results: [{ title: 'Hello', url: pages.url('/article'), snippet: 'A page' }] }))],
});
try {
  await engine.admin.createOrganization('acme', { credits: 100 });
  const answer = await engine.search({ q: 'hello' }, { organization: 'acme' });
  const extract = await engine.extract({ urls: [pages.url('/article')] }, { organization: 'acme' });
  let code: ErrorCode | undefined;
  try {
    await engine.search({ q: 42 } as unknown as SearchParams, { organization: 'acme' });
  } catch (error) {
    if (isWebsiftError(error)) code = error.code;
  }
  console.log(JSON.stringify({ answer: describeAnswer(answer), markdown: extract.results[0]?.markdown, code }));
} finally {
  await engine.close();
  await pages.close();
}
`;

/** CommonJS TypeScript: every entry but the ESM-only websift/testing, and websift/package.json. */
const cjsConsumer = `
import { createEngine, htmlToMarkdown, type SearchParams } from 'websift';
import { createNodeHandler, openapi } from 'websift/http';
import type { PostgresLedger } from 'websift/postgres';
import { localIndex } from 'websift/sources';
import { redisCacheStore } from 'websift/redis';
import pkg = require('websift/package.json');

const params: SearchParams = { q: 'from CommonJS' };
export type Ledger = PostgresLedger;
console.log(JSON.stringify({
  engine: typeof createEngine, handler: typeof createNodeHandler, index: typeof localIndex, redis: typeof redisCacheStore,
  version: pkg.version, openapi: openapi.openapi, q: params.q, md: htmlToMarkdown('<article><p>A CommonJS TypeScript paragraph of several words.</p></article>'),
}));
`;

/**
 * The same under node10 resolution (no exports map: typesVersions), without the JSON import; with
 * esModuleInterop, as \`tsc --init\` writes it (zod's own CommonJS declarations need it too).
 */
const node10Consumer = cjsConsumer.replace(/^import pkg.*$/m, 'const pkg = { version: "" };');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-tarball-'));
  // CI builds before testing; packing without the prepack build keeps dist/ in place for the other
  // test files running in parallel (a fresh checkout without dist/ is built here once).
  if (!existsSync(join(root, 'dist', 'index.js'))) execFileSync(npm, ['run', 'build'], { cwd: root, stdio: 'ignore' });
  execFileSync(npm, ['pack', '--pack-destination', dir, '--silent', '--ignore-scripts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync(npm, ['install', `./${tarball}`, `@types/node@${typesNode}`, '--prefer-offline', '--no-audit', '--no-fund', '--silent'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(join(dir, 'consumer.ts'), consumer);
  writeFileSync(
    join(dir, 'tsconfig.node16.json'),
    JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'node16', moduleResolution: 'node16' }, files: ['consumer.ts'] }),
  );
  writeFileSync(join(dir, 'consumer-cjs.cts'), cjsConsumer);
  writeFileSync(join(dir, 'consumer-node10.ts'), node10Consumer);
  writeFileSync(
    join(dir, 'tsconfig.cts.json'),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: 'node16', moduleResolution: 'node16', resolveJsonModule: true, outDir: 'out-cjs' },
      files: ['consumer-cjs.cts'],
    }),
  );
  writeFileSync(
    join(dir, 'tsconfig.node10.json'),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true, noEmit: true },
      files: ['consumer-node10.ts'],
    }),
  );
  writeFileSync(
    join(dir, 'tsconfig.bundler.json'),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: 'esnext', moduleResolution: 'bundler', noEmit: true },
      files: ['consumer.ts'],
    }),
  );
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const typecheck = (project: string) => spawnSync(process.execPath, [tsc, '-p', project], { cwd: dir, encoding: 'utf8' });

describe('the packed tarball in a strict consumer project', () => {
  it('typechecks under module/moduleResolution node16 (and emits the consumer)', () => {
    const run = typecheck('tsconfig.node16.json');
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it('typechecks under module esnext, moduleResolution bundler', () => {
    const run = typecheck('tsconfig.bundler.json');
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it('compiles a .cts file under node16 (no TS1479 for any entry it requires) and runs it', () => {
    const run = typecheck('tsconfig.cts.json');
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
    const ran = spawnSync(process.execPath, [join(dir, 'out-cjs', 'consumer-cjs.cjs')], { cwd: dir, env, encoding: 'utf8' });
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toMatchObject({
      engine: 'function',
      handler: 'function',
      index: 'function',
      redis: 'function',
      version: expect.any(String),
      openapi: '3.1.0',
    });
  }, 120_000);

  it('resolves every subpath under node10 resolution (typesVersions)', () => {
    const run = typecheck('tsconfig.node10.json');
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it('runs: a search and an extract in-process on the embedded defaults', () => {
    const run = spawnSync(process.execPath, [join(dir, 'out', 'consumer.js')], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as { answer: string; markdown: string; code: string };
    expect(out.answer).toMatch(/ 1$/);
    expect(out.markdown).toContain('A paragraph of several words');
    expect(out.code).toBe('invalid_request');
  }, 120_000);

  it('loads from CommonJS', () => {
    writeFileSync(
      join(dir, 'consumer.cjs'),
      `
      const { createEngine, htmlToMarkdown } = require('websift');
      const { createFetchHandler } = require('websift/http');
      console.log(JSON.stringify({ engine: typeof createEngine, handler: typeof createFetchHandler, md: htmlToMarkdown('<article><p>From CommonJS, a paragraph of several words.</p></article>') }));
    `,
    );
    const run = spawnSync(process.execPath, [join(dir, 'consumer.cjs')], { cwd: dir, env, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ engine: 'function', handler: 'function', md: expect.stringContaining('From CommonJS') });
  });
});
