// serve's access-log destination (src/cli/buffered-lines.ts): lines wait to be written together, and none is
// lost when the process ends (close, process.exit, an uncaught exception).

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bufferedLines } from '../../src/cli/buffered-lines.js';
import { ROOT } from './run-cli.js';

describe('buffered access-log lines', () => {
  it('writes lines together: when enough wait, and on flush/close, in order', () => {
    const chunks: string[] = [];
    const lines = bufferedLines({
      destination: { write: (c: Buffer) => chunks.push(c.toString('utf8')) },
      maxPending: 20,
      flushMs: 60_000,
    });
    lines.write('one\n');
    lines.write('two\n');
    expect(chunks).toEqual([]);
    lines.write('three-and-more\n'); // 22 characters waiting
    expect(chunks).toEqual(['one\ntwo\nthree-and-more\n']);
    lines.write('four\n');
    lines.flush();
    lines.write('five\n');
    lines.close();
    expect(chunks).toEqual(['one\ntwo\nthree-and-more\n', 'four\n', 'five\n']);
  });

  it('writes any text as UTF-8, a batch longer than the reused buffer included', () => {
    const chunks: Buffer[] = [];
    const lines = bufferedLines({ destination: { write: (c: Buffer) => chunks.push(Buffer.from(c)) }, maxPending: 64, flushMs: 60_000 });
    const written = ['plain\n', 'é 日本 😀 \ud800\n', `${'x'.repeat(300_000)}\n`, `${'日'.repeat(100_000)}\n`, 'last\n'];
    for (const line of written) lines.write(line);
    lines.close();
    expect(Buffer.concat(chunks).equals(Buffer.from(written.join(''), 'utf8'))).toBe(true);
  });

  it('writes what waits after a while, without holding the process open', async () => {
    const chunks: string[] = [];
    const lines = bufferedLines({ destination: { write: (c: Buffer) => chunks.push(c.toString('utf8')) }, flushMs: 10 });
    lines.write('alone\n');
    expect(chunks).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(chunks).toEqual(['alone\n']);
    lines.close();
  });

  const ending = {
    'process.exit': 'process.exit(0)',
    'an uncaught exception': "setImmediate(() => { throw new Error('boom') })",
    'the event loop running dry': '',
  };
  for (const [how, code] of Object.entries(ending)) {
    it(`loses no line when the process ends by ${how}`, () => {
      const module = pathToFileURL(join(ROOT, 'src/cli/buffered-lines.ts')).href;
      const script = `import { bufferedLines } from '${module}';
        const lines = bufferedLines({ flushMs: 60_000 });
        for (let i = 0; i < 3; i++) lines.write('line ' + i + '\\n');
        ${code}`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
      expect(child.stdout).toBe('line 0\nline 1\nline 2\n');
    });
  }
});
