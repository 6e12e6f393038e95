// Runs a bench on the code as it ships: the tree compiled by tsc (as `npm run build` compiles src/) into
// .bench-js/, then `node .bench-js/bench/NAME.js ARGS`. Under tsx a bench times esbuild's output instead,
// whose `keepNames` wraps every function made at run time in `__name` (an Object.defineProperty each):
// a charged search over HTTP cost 110 µs of server CPU under tsx and 83 µs compiled (docs/benchmarks.md,
// "Observability: the code as it ships"), which dilutes every ratio to a baseline.
//   node bench/compiled.mjs NAME [ARGS…]       e.g. node bench/compiled.mjs observability --skip-readyz
// `--tree-b DIR` among ARGS (bench/observability.ts) compiles DIR too and hands the bench DIR's output.
// Only for benches that read no file next to their own source (the CPU benches of the engine and its HTTP bindings).
import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const OUT = '.bench-js';
const [name, ...args] = process.argv.slice(2);
if (!name) {
  console.error('usage: node bench/compiled.mjs NAME [ARGS…]  (bench/NAME.ts)');
  process.exit(2);
}

/** Compiles the tree at `root` into root/.bench-js (no declarations, no source maps: what runs, not what is read). */
function compile(root) {
  const tsc = resolve(root, 'node_modules/typescript/bin/tsc');
  const flags = ['--noEmit', 'false', '--outDir', resolve(root, OUT), '--sourceMap', 'false', '--declaration', 'false'];
  execFileSync(process.execPath, [tsc, '-p', resolve(root, 'tsconfig.json'), ...flags], { stdio: 'inherit' });
  return resolve(root, OUT);
}

const here = compile(resolve(import.meta.dirname, '..'));
const treeB = args.indexOf('--tree-b');
if (treeB !== -1 && args[treeB + 1]) args[treeB + 1] = compile(resolve(args[treeB + 1]));
const run = spawnSync(process.execPath, [resolve(here, 'bench', `${name}.js`), ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
