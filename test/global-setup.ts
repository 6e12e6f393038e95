// Before the test files run: the conversion worker bundled once to JavaScript, so that workers start
// as fast in tests as from the built package (through tsx each worker compiles the converter anew,
// ~1.5 s, which pages with short time limits would be charged for). Packages stay external.

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export default async function setup(): Promise<void> {
  const dir = join(process.cwd(), 'node_modules', '.cache', 'websift');
  mkdirSync(dir, { recursive: true });
  // One bundle per checkout: worktrees share node_modules, and each must run its own worker.
  const checkout = createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12);
  const outfile = join(dir, `conversion-worker-${checkout}.mjs`);
  await build({
    entryPoints: ['src/conversion/conversion-worker.ts'],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  process.env['WEBSIFT_CONVERSION_WORKER'] = outfile;
}
