// The package as a consumer gets it: what `npm pack` ships, and `require()` from CommonJS.
// Needs the build (CI builds before testing; a fresh checkout without dist/ is built here once).

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let consumer: string;

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'index.js'))) execFileSync(npm, ['run', 'build'], { cwd: root, stdio: 'ignore' });
  // A consumer project with websift in its node_modules, resolved by name through the exports map.
  consumer = mkdtempSync(join(tmpdir(), 'websift-consumer-'));
  mkdirSync(join(consumer, 'node_modules'));
  symlinkSync(root, join(consumer, 'node_modules', 'websift'), 'dir');
}, 120_000);
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

describe('the published package', () => {
  it('ships the build, the licence and the docs it names, and no source maps, sources or tests', () => {
    const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
    const files = (JSON.parse(out) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
    for (const path of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'dist/conversion/conversion-worker.js',
      'cjs/conversion-worker.cjs',
      'dist/convert/model/block-model.json',
      'dist/mcp/index.js',
      'cjs/testing.cjs',
      'docs/openapi.json',
      'dist/cjs/package.json',
      'dist/cjs/index.d.ts',
      'dist/cjs/http/index.d.ts',
    ]) {
      expect(files).toContain(path);
    }
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => /^(src|test|bench)\//.test(f))).toEqual([]);
  });

  it('works from CommonJS: require() of each entry point, and a clear error for the ESM-only testing helpers', () => {
    const script = join(consumer, 'consumer.cjs');
    writeFileSync(
      script,
      `
      const websift = require('websift');
      const { createNodeHandler } = require('websift/http');
      const { localIndex } = require('websift/sources');
      const { redisCacheStore } = require('websift/redis');
      const { createMcpFetchHandler } = require('websift/mcp');
      const { name } = require('websift/package.json');
      const md = websift.htmlToMarkdown('<article><h1>Hi</h1><p>From CommonJS, a paragraph of several words.</p></article>');
      let testing;
      try { require('websift/testing'); } catch (e) { testing = e.message; }
      console.log(JSON.stringify({ engine: typeof websift.createEngine, handler: typeof createNodeHandler, index: typeof localIndex, redis: typeof redisCacheStore, mcp: typeof createMcpFetchHandler, name, md, testing }));
    `,
    );
    const run = spawnSync(process.execPath, [script], { cwd: consumer, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as Record<string, string>;
    expect(out).toMatchObject({
      engine: 'function',
      handler: 'function',
      index: 'function',
      redis: 'function',
      mcp: 'function',
      name: 'websift',
    });
    expect(out['md']).toContain('From CommonJS');
    expect(out['testing']).toMatch(/ESM-only/);
  });
});
