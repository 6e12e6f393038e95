// Before the test files run: the conversion worker bundled once to JavaScript, so that workers start
// as fast in tests as from the built package (through tsx each worker compiles the converter anew,
// ~1.5 s, which pages with short time limits would be charged for). Packages stay external.

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export default async function setup(): Promise<void> {
  // One bundle per checkout: worktrees share node_modules, and each must run its own worker and model.
  const checkout = createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12);
  const dir = join(process.cwd(), 'node_modules', '.cache', 'websift', checkout);
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'conversion-worker.mjs');
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
  // The bundle reads the model's weights from beside itself, as dist/convert/ does.
  copyFileSync(join('src', 'convert', 'model', 'block-model.json'), join(dir, 'block-model.json'));
  process.env['WEBSIFT_CONVERSION_WORKER'] = outfile;
}
