// Writes dist/cjs/: the declaration files again, under a package.json of "type": "commonjs", for the
// `require` condition of package.json's exports. A `.cts` file (or any CommonJS TypeScript under
// module node16) may not import declarations TypeScript takes for an ES module (TS1479), although Node
// ≥ 20.19 require()s websift's ES modules; the same declarations read as CommonJS describe what that
// require() returns. Run by `npm run build`, after tsc.
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const out = join(dist, 'cjs');
rmSync(out, { recursive: true, force: true });
for (const file of readdirSync(dist, { recursive: true })) {
  // Every declaration file but the CLI's (not an entry point).
  if (!file.endsWith('.d.ts') || file.startsWith('cli/') || file.startsWith('cjs/')) continue;
  cpSync(join(dist, file), join(out, file));
}
writeFileSync(join(out, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
