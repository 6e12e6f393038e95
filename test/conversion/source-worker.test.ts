// Run from the TypeScript source without a worker bundle (a bench or script under tsx), the pool's
// workers load the converter through tsx: on Node 20 a worker's `--import tsx` execArgv does not reach
// its loader, so the entry registers tsx itself (every such bench failed with "Unknown file extension").
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('conversion pool run from the TypeScript source', () => {
  it('converts a page with no worker bundle named', () => {
    const env = { ...process.env };
    delete env['WEBSIFT_CONVERSION_WORKER'];
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/conversion/fixtures/convert-from-source.ts'], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).not.toMatch(/Unknown file extension/);
    expect(child.status).toBe(0);
    expect(child.stdout).toContain('From source');
  }, 90_000);
});
