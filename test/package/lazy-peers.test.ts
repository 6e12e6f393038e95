// playwright-core is an optional peer dependency, loaded only when the stealth renderer first launches
// a browser. Importing any entry point (createPlaywrightRenderer included) and running an engine must
// not load it: checked in a child process with a resolve hook that reports every playwright-core import.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = (path: string) => join(root, 'src', path);

const hook = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module';
   register('data:text/javascript,' + encodeURIComponent("import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { if (/^playwright-core($|\\\\/)/.test(s)) writeSync(2, 'PLAYWRIGHT-LOADED ' + s + '\\\\n'); return next(s, c); }"));`,
)}`;

const child = `
  const entries = ${JSON.stringify(['index.ts', 'http/index.ts', 'sources/index.ts', 'testing/index.ts'].map(src))};
  for (const entry of entries) await import(entry);
  const websift = await import(entries[0]);
  const renderer = websift.createPlaywrightRenderer({ concurrency: 1 });
  const engine = websift.createEngine({ renderer });
  await engine.admin.createOrganization('acme', { credits: 1 });
  await engine.close();
  await renderer.close();
  process.stderr.write('ENGINE-DONE\\n');
  await import('playwright-core'); // on purpose: proves the hook reports a playwright-core import
`;

describe('playwright-core stays unloaded', () => {
  it('importing websift (createPlaywrightRenderer included) and running an engine never loads it', async () => {
    const { stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--import', hook, '--input-type=module', '-e', child],
      { cwd: root, timeout: 60_000 },
    );
    // The hook runs on the loader thread and writes straight to fd 2 (its process.stderr could be lost at exit).
    expect(stderr, stderr).toContain('ENGINE-DONE');
    expect(stderr.match(/PLAYWRIGHT-LOADED/g), stderr).toHaveLength(1); // only the child's deliberate import
  }, 90_000);
});
