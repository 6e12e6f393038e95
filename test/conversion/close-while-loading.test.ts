// A long run (test/long-tests.ts): pools closed at delays swept across their workers' start, in a child
// process, which Node 20 aborted (a V8 fatal error) when the pool's worker entry was the converter's ES
// module: cjs/conversion-worker.cjs says why. The old entry crashed in about two runs of three.

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('conversion pool closed while its workers start', () => {
  it('closing pools at any point of their workers’ start never aborts the process', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/conversion/fixtures/close-while-loading.ts', '100', '8'], {
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(child.stderr).not.toContain('FATAL ERROR');
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout).toContain('closed 100 pools');
  }, 300_000);
});
