// `pg` is loaded only when websift has to make a pool, on the first query: importing websift/postgres
// and creating a ledger (synchronously, as createEngine does) load nothing. Checked in a child process
// with a resolve hook that reports every import of 'pg'.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

const hook = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module';
   register('data:text/javascript,' + encodeURIComponent("export async function resolve(s, c, next) { if (s === 'pg') process.stdout.write('PG-LOADED\\\\n'); return next(s, c); }"));`,
)}`;

const child = `
  const { postgresLedger } = await import(${JSON.stringify(`${root}src/postgres/index.ts`)});
  console.log('imported');
  const ledger = postgresLedger({ connectionString: 'postgres://postgres@127.0.0.1:1/none', poolConfig: { connectionTimeoutMillis: 200 } });
  console.log('created');
  await ledger.usage('acme').catch((e) => console.log('rejected ' + e.name));
  await ledger.close();
`;

describe('websift/postgres loads pg lazily', () => {
  it('not on import nor on creation: on the first query', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--import', hook, '--input-type=module', '-e', child],
      {
        cwd: root,
        timeout: 60_000,
      },
    );
    expect(stdout.trim().split('\n')).toEqual(['imported', 'created', 'PG-LOADED', 'rejected LedgerUnavailableError']);
  }, 90_000);
});
