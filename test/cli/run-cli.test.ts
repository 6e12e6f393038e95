// The CLI tests' child-process helper: waitForLine finds a line the child wrote before the call (a log
// line racing the response the test awaited first was missed, and the test waited out its timeout).

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { recordStderr, waitForLine } from './run-cli.js';

describe('waitForLine', () => {
  it('finds lines written before the call, each after the previous match, and rejects once none is left', async () => {
    const child = recordStderr(
      spawn(process.execPath, ['-e', "console.error('first 1'); console.error('second 2'); console.error('first 3')"], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    await once(child, 'close'); // everything written before anyone waits
    expect((await waitForLine(child, /first (\d)/))[1]).toBe('1');
    expect((await waitForLine(child, /second (\d)/))[1]).toBe('2');
    expect((await waitForLine(child, /first (\d)/))[1]).toBe('3');
    await expect(waitForLine(child, /second/)).rejects.toThrow(/process ended before/);
  });
});
