// Before the test files run: the conversion worker bundled once to JavaScript, so that workers start
// as fast in tests as from the built package (through tsx each worker compiles the converter anew,
// ~1.5 s, which pages with short time limits would be charged for). Packages stay external. And the
// run's id, which every worker puts in its schema names and Redis key prefixes (test/support/services.ts).

import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { removeLeftovers } from './support/leftovers.js';
import { newRunId } from './support/services.js';

// vitest runs the global setup once per project (quick and long: vitest.config.ts); the run does it once.
const run = globalThis as { websiftSetup?: Promise<() => Promise<void>> };

export default function setup(): Promise<() => Promise<void>> {
  return (run.websiftSetup ??= prepare());
}

async function prepare(): Promise<() => Promise<void>> {
  const runId = (process.env['WEBSIFT_TEST_RUN'] = newRunId());
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
  let tornDown = false;
  return async () => {
    if (tornDown) return;
    tornDown = true;
    const left = await removeLeftovers(runId);
    if (left.length > 0) {
      const shown = left.slice(0, 10).join(', ') + (left.length > 10 ? ` and ${left.length - 10} more` : '');
      // vitest reports an error thrown here but still exits 0: set the exit code too.
      process.exitCode = 1;
      throw new Error(
        `the tests left ${left.length} thing(s) on the shared servers (now removed): ${shown}; a suite must remove what it makes`,
      );
    }
  };
}
