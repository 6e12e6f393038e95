// A command that reads books (usage, search, extract, org list/credit, key …) on a SQLite file that does
// not exist is an error naming the path, and leaves no file behind; org create, index add of local
// files and serve start new books (docs/cli.md, "The database").

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { mainCaptured } from './in-process.js';
import { runCli, tempDb } from './run-cli.js';

describe('a missing database file', () => {
  const reads: string[][] = [
    ['usage'],
    ['search', 'kites'],
    ['extract', 'https://example.com/'],
    ['org', 'list'],
    ['org', 'credit', 'acme', '5'],
    ['key', 'create', 'acme'],
    ['key', 'revoke', 'ws_live_x'],
    ['index', 'add', 'https://example.com/'],
  ];

  it.each(reads)('websift %s … is refused naming the path, and not created', async (...args) => {
    const db = tempDb();
    const res = await mainCaptured([...args, '--database', db]);
    expect(res.code).toBe(2);
    expect(res.stderr.trim()).toBe(
      `websift: database ${db} does not exist; this command does not create it (org create, index add, serve and demo do)`,
    );
    expect(res.stdout).toBe('');
    expect(existsSync(db)).toBe(false);
  });

  it('the default ./websift.db and WEBSIFT_DB are checked the same way', async () => {
    const home = process.cwd();
    process.chdir(mkdtempSync(join(tmpdir(), 'websift-cwd-'))); // a directory without websift.db (the test pool forks)
    vi.stubEnv('WEBSIFT_DATABASE_URL', '');
    vi.stubEnv('WEBSIFT_DB', '');
    try {
      const res = await mainCaptured(['usage']);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/database \.\/websift\.db does not exist/);
      expect(existsSync('websift.db')).toBe(false);
    } finally {
      vi.unstubAllEnvs();
      process.chdir(home);
    }
    const db = tempDb();
    const fromEnv = await runCli(['org', 'list'], { WEBSIFT_DB: db }); // the executable
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(`database ${db} does not exist`);
    expect(existsSync(db)).toBe(false);
  });

  it('a missing --index file is refused by a read command too', async () => {
    const db = tempDb();
    await mainCaptured(['org', 'create', 'acme', '--db', db]);
    const index = join(mkdtempSync(join(tmpdir(), 'websift-index-')), 'typo.db');
    const res = await mainCaptured(['search', 'kites', '--db', db, '--index', index]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(`index ${index} does not exist`);
    expect(existsSync(index)).toBe(false);
  });

  it('org create and index add of local files create the books; a read command then opens them', async () => {
    const db = tempDb();
    expect((await mainCaptured(['org', 'create', 'acme', '--credits', '3', '--db', db])).code).toBe(0);
    expect(JSON.parse((await mainCaptured(['usage', '--db', db])).stdout)).toMatchObject({ organization: 'acme' });

    const other = tempDb();
    const site = mkdtempSync(join(tmpdir(), 'websift-site-'));
    writeFileSync(join(site, 'kites.md'), '# Kites\n\nA kite needs steady wind.\n');
    const added = await mainCaptured(['index', 'add', site, '--base-url', 'https://docs.test/', '--db', other]);
    expect(added.code).toBe(0);
    expect(existsSync(other)).toBe(true);
  });
});
