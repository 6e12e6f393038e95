import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { mainCaptured } from './in-process.js';
import { runCli, tempDb } from './run-cli.js';

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('websift org / key / usage / search against one database', () => {
  it('provisions an organization and a key, credits it, and reports usage', async () => {
    const db = tempDb();
    const created = await runCli(['org', 'create', 'acme', '--credits', '5', '--db', db]);
    expect(created).toMatchObject({ code: 0 });
    expect(json(created.stdout)).toEqual({ organization: 'acme', credits: 5 });

    const key = await runCli(['key', 'create', 'acme', '--db', db]);
    expect(key.code).toBe(0);
    expect(json(key.stdout).key).toMatch(/^ws_/);

    const credited = await runCli(['org', 'credit', 'acme', '10'], { WEBSIFT_DB: db });
    expect(json(credited.stdout)).toEqual({ organization: 'acme', added: 10, balance: 15 });

    const list = await runCli(['org', 'list', '--db', db]);
    expect(JSON.parse(list.stdout)).toEqual([{ id: 'acme', balance: 15, used: 0 }]);

    const usage = await runCli(['usage', '--db', db]);
    expect(usage.code).toBe(0);
    expect(json(usage.stdout)).toMatchObject({ organization: 'acme', credits: { balance: 15, used: 0 } });

    const revoked = await runCli(['key', 'revoke', String(json(key.stdout).key), '--db', db]);
    expect(json(revoked.stdout)).toEqual({ revoked: true });
    const again = await runCli(['key', 'revoke', String(json(key.stdout).key), '--db', db]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000); // eight process starts

  it('indexes local files and searches them in-process, charging the organization', async () => {
    const db = tempDb();
    await runCli(['org', 'create', 'acme', '--credits', '3', '--db', db]);
    const indexed = await runCli([
      'index',
      'add',
      'corpus/finding-polaris.md',
      'corpus/bowline-knot.html',
      '--base-url',
      'https://docs.test/',
      '--db',
      db,
    ]);
    expect(indexed.code).toBe(0);
    expect(json(indexed.stdout)).toMatchObject({ indexed: 2, failed: [], documents: 2 });

    const found = await runCli(['search', 'bowline', '--db', db]);
    expect(found.code).toBe(0);
    const body = json(found.stdout) as { results: { title: string; url: string }[]; metadata: { credits_used: number } };
    expect(body.results[0]).toMatchObject({ title: 'Tying a Bowline', url: 'https://docs.test/bowline-knot.html' });
    expect(body.metadata.credits_used).toBe(1);
    const usage = json((await runCli(['usage', '--org', 'acme', '--db', db])).stdout);
    expect(usage).toMatchObject({ credits: { balance: 2, used: 1 }, requests: { search: 1 } });
  }, 60_000); // four process starts

  it('an engine error prints its JSON body on stdout, one line on stderr, and exits 1', async () => {
    const db = tempDb();
    await runCli(['org', 'create', 'poor', '--db', db]);
    const res = await runCli(['search', 'anything', '--db', db]);
    expect(res.code).toBe(1);
    expect(json(res.stdout)).toMatchObject({ status: 'error', code: 'insufficient_credits', credits_available: 0 });
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('asks for --org when the database holds several organizations', async () => {
    const db = tempDb();
    await createEngine({ database: db }).close(); // books with no organization
    expect((await mainCaptured(['usage', '--db', db])).stderr).toMatch(/no organization in .*org create/);
    await mainCaptured(['org', 'create', 'a', '--db', db]);
    await mainCaptured(['org', 'create', 'b', '--db', db]);
    const res = await mainCaptured(['usage', '--db', db]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/choose one with --org/);
    expect((await mainCaptured(['usage', '--org', 'b', '--db', db])).code).toBe(0);
    const unknown = await mainCaptured(['usage', '--org', 'zzz', '--db', db]);
    expect(unknown.code).toBe(1);
    expect(json(unknown.stdout).code).toBe('unknown_organization');
  });
});
