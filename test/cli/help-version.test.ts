import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { mainCaptured } from './in-process.js';
import { ROOT, runCli } from './run-cli.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

// Each subcommand, an option only it has, and the environment variable its help must name.
const COMMANDS: [string[], RegExp][] = [
  [['serve'], /--port N .*\[env: WEBSIFT_PORT, else PORT\]/],
  [['demo'], /--keep-serving/],
  [['org'], /--credits N/],
  [['key'], /key revoke <key>/],
  [['search'], /--content N/],
  [['extract'], /--format FORMAT/],
  [['usage'], /--org ID/],
  [['index', 'add'], /--base-url URL/],
  [['openapi'], /usage: websift openapi/],
];

describe('websift --help and --version', () => {
  it.each(COMMANDS)(
    "websift %j --help prints that command's own help, options with their env vars, and an example",
    async (command, own) => {
      const res = await mainCaptured([...command, '--help']);
      expect(res.code).toBe(0);
      expect(res.stderr).toBe('');
      expect(res.stdout).toMatch(new RegExp(`^usage: websift ${command[0]}`));
      expect(res.stdout).toMatch(own);
      expect(res.stdout).toMatch(/--database PATH\|URL .*\[env: WEBSIFT_DATABASE_URL, else WEBSIFT_DB\]/);
      expect(res.stdout).toMatch(/Examples?:\n {2}websift /);
      expect(res.stdout).not.toMatch(/usage: websift <command>/); // not the global summary
    },
  );

  it('each command help is different; -h and `websift help <command>` print the same', async () => {
    const helps: string[] = [];
    for (const [command] of COMMANDS) helps.push((await mainCaptured([...command, '--help'])).stdout); // one at a time: stdout is captured globally
    expect(new Set(helps).size).toBe(COMMANDS.length);
    expect((await mainCaptured(['serve', '-h'])).stdout).toBe(helps[0]);
    expect((await mainCaptured(['help', 'serve'])).stdout).toBe(helps[0]);
    expect((await mainCaptured(['--help', 'serve'])).stdout).toBe(helps[0]);
    expect((await mainCaptured(['help', 'nope'])).code).toBe(2);
  });

  it('websift --help keeps the global summary listing the subcommands', async () => {
    const res = await mainCaptured(['--help']);
    expect(res.code).toBe(0);
    for (const name of ['serve', 'demo', 'org create', 'key create', 'search', 'extract', 'usage', 'index add', 'openapi']) {
      expect(res.stdout).toContain(`  ${name}`);
    }
    expect(res.stdout).toMatch(/--version/);
  });

  it('--version, -V and -v print the version from package.json, from src through tsx too', async () => {
    for (const flag of ['--version', '-V', '-v']) {
      expect(await mainCaptured([flag])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
    const spawned = await runCli(['--version']);
    expect(spawned).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('finds package.json from the dist/cli layout of the installed package as well', async () => {
    // The same module, compiled to where the build puts it, under a package of another version.
    const pkg = mkdtempSync(join(tmpdir(), 'websift-pkg-'));
    mkdirSync(join(pkg, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'websift', version: '9.8.7', type: 'module' }));
    const source = readFileSync(join(ROOT, 'src/cli/version.ts'), 'utf8');
    writeFileSync(join(pkg, 'dist', 'cli', 'version.js'), transformSync(source, { loader: 'ts', format: 'esm' }).code);
    const built = (await import(pathToFileURL(join(pkg, 'dist', 'cli', 'version.js')).href)) as { packageVersion(): string };
    expect(built.packageVersion()).toBe('9.8.7');
  });
});
