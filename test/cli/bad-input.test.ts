import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mainCaptured } from './in-process.js';
import { runCli, tempDb } from './run-cli.js';

describe('bad input: non-zero exit and a one-line reason on stderr, nothing on stdout', () => {
  const db = tempDb();
  const badConfig = join(dirname(db), 'bad.json');
  writeFileSync(badConfig, JSON.stringify({ sources: [{ type: 'altavista' }] }));
  const brokenConfig = join(dirname(db), 'broken.json');
  writeFileSync(brokenConfig, '{"sources": [');
  const misspelt = join(dirname(db), 'misspelt.json');
  writeFileSync(misspelt, JSON.stringify({ engine: { ratelimit: { limit: 1, window: 1 } } }));

  const cases: [string[], number, RegExp][] = [
    [[], 2, /usage: websift/],
    [['frobnicate'], 2, /unknown command 'frobnicate'/],
    [['search'], 2, /search takes <query>/],
    [['search', 'x', '--content', 'many'], 2, /--content must be an integer/],
    [['search', 'x', '--content', '11'], 2, /--content must be between 0 and 10/],
    [['search', 'x', '--colour'], 2, /Unknown option '--colour'/],
    [['org'], 2, /org: expected create, credit or list/],
    [['org', 'create'], 2, /org create takes <id>/],
    [['org', 'create', 'x', '--credits=-4'], 2, /--credits must be between/],
    [['org', 'credit', 'x', 'lots'], 2, /credits must be an integer/],
    [['key', 'rotate'], 2, /key: expected create or revoke, got 'rotate'/],
    [['extract'], 2, /extract takes one or more URLs/],
    [['extract', 'https://a.test/', '--format', 'pdf'], 2, /--format must be markdown or html/],
    [['extract', 'https://a.test/', '--max-chars', 'lots'], 2, /--max-chars must be an integer, got 'lots'/],
    [['extract', 'https://a.test/', '--max-chars', '0'], 2, /--max-chars must be at least 1, got 0/],
    [['extract', 'https://a.test/', '--start-char=-1'], 2, /--start-char must be at least 0, got -1/],
    [['extract', 'https://a.test/', '--query', 'x', '--format', 'html'], 2, /--query needs --format markdown/],
    [['search', 'x', '--max-chars', '500'], 2, /--max-chars needs --content/],
    [['index', 'add', 'corpus'], 2, /need --base-url/],
    [['index', 'add', 'corpus', '--base-url', 'ftp://x'], 2, /--base-url must be an absolute http/],
    [['index', 'add', 'no/such/dir', '--base-url', 'https://x.test/'], 2, /no such file or directory/],
    [
      ['index', 'add', 'package.json', '--base-url', 'https://x.test/'],
      2,
      /nothing to index: package\.json: unsupported type \.json \(only \.html/,
    ],
    [['index', 'add', 'package.json', 'LICENSE', '--base-url', 'https://x.test/'], 2, /nothing to index: .* \(and 1 more\)$/m],
    [['index', 'remove'], 2, /index: expected add/],
    [['serve', '--port', '99999'], 2, /--port must be between 0 and 65535/],
    [['serve', '--grace', 'soon'], 2, /--grace must be a number of seconds/],
    [['usage', '--config', badConfig], 2, /unknown type 'altavista'/],
    [['usage', '--config', brokenConfig], 2, /not valid JSON/],
    [['usage', '--config', '/no/such/config.json'], 2, /cannot read config/],
    [['usage', '--config', misspelt], 2, /"engine": unknown key 'ratelimit' \(did you mean 'rateLimit'\?\)/],
    [['openapi', 'extra'], 2, /openapi takes no arguments; got 1/],
  ];

  it.each(cases)('websift %j → exit %i', async (args, code, message) => {
    const res = await mainCaptured(args.length > 0 ? [...args, '--db', db] : []);
    expect(res.code).toBe(code);
    expect(res.stderr).toMatch(message);
    if (args.length > 0) expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stdout).toBe('');
  });

  it('help goes to stdout with exit 0', async () => {
    const res = await mainCaptured(['help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/usage: websift <command>/);
  });

  it('the executable exits with the same codes and messages', async () => {
    const [usage, unknown, bad, help] = await Promise.all([
      runCli([]),
      runCli(['frobnicate']),
      runCli(['search', 'x', '--content', 'many', '--db', db]),
      runCli(['--help']),
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/usage: websift/);
    expect(unknown).toMatchObject({ code: 2, stdout: '', stderr: "websift: unknown command 'frobnicate' (run 'websift help')\n" });
    expect(bad).toMatchObject({ code: 2, stdout: '', stderr: "websift: --content must be an integer, got 'many'\n" });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/serve \[--port/);
  });
});
