// The conversion pool's worker entry (cjs/conversion-worker.cjs) is CommonJS and imports the converter
// module, because Node 20 aborts the whole host process when a worker is terminated while require()
// loads an ES module (the pool's entry was the module itself, which piscina require()s).

import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as converter from '../../src/conversion/conversion-worker.js';

const require = createRequire(import.meta.url);

describe('conversion worker entry', () => {
  it('runs every task the converter module exports (default and named)', () => {
    const entry = require('../../cjs/conversion-worker.cjs') as Record<string, unknown> & (() => unknown);
    expect(typeof entry).toBe('function'); // piscina's default task
    const tasks = Object.entries(converter).filter(([name, value]) => name !== 'default' && typeof value === 'function');
    expect(tasks.length).toBeGreaterThan(0);
    for (const [name] of tasks) expect(typeof entry[name], `task ${name}`).toBe('function');
  });
});
