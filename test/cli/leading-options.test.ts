// The common options may come before the command: `websift --database x usage` reads like
// `websift usage --database x`.

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mainCaptured } from './in-process.js';
import { runCli, tempDb } from './run-cli.js';

describe('common options before the command', () => {
  it('--database (or --db=…) and --config before the command are used by it, subcommands included', async () => {
    const db = tempDb();
    expect((await mainCaptured(['--database', db, 'org', 'create', 'acme', '--credits', '4'])).code).toBe(0);
    const usage = await mainCaptured(['--db=' + db, 'usage']);
    expect(usage.code).toBe(0);
    expect(JSON.parse(usage.stdout)).toMatchObject({ organization: 'acme', credits: { balance: 4 } });
    const config = join(dirname(db), 'c.json');
    writeFileSync(config, JSON.stringify({ engine: { resultsPerSearch: 0 } }));
    const refused = await mainCaptured(['--config', config, '--db', db, 'org', 'list']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"engine\.resultsPerSearch"/);
  });

  it('the executable takes them too; help and version still work after them', async () => {
    const db = tempDb();
    await mainCaptured(['org', 'create', 'acme', '--db', db]);
    const listed = await runCli(['--database', db, 'org', 'list']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([{ id: 'acme', balance: 0, used: 0 }]);
    expect((await mainCaptured(['--db', db, '--version'])).code).toBe(0);
    const help = await mainCaptured(['--db', db, 'usage', '--help']);
    expect(help.stdout).toMatch(/usage: websift usage/);
  });

  it('an option the command does not take, or a missing value, is a usage error', async () => {
    const port = await mainCaptured(['--port', '80', 'serve']);
    expect(port.code).toBe(2);
    expect(port.stderr.trim()).toBe(
      "websift: option '--port' cannot come before the command (only --database, --db, --redis, --index, --config can)",
    );
    const bare = await mainCaptured(['--database']);
    expect(bare.code).toBe(2);
    expect(bare.stderr.trim()).toBe("websift: option '--database' needs a value");
    const alone = await mainCaptured(['--db', tempDb()]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/usage: websift/);
  });
});
