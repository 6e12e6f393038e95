// What the CLI tests run against: a SQLite file with an organization and its key, a SearXNG stand-in as
// the only search source and a loopback page server (the config lets the engine fetch it).

import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { type PageServer, startPageServer } from '../../src/testing/index.js';
import { mainCaptured } from '../cli/in-process.js';
import { tempDb } from '../cli/run-cli.js';
import { longArticle, SHORT } from './harness.js';

export interface CliFixture {
  db: string;
  config: string;
  key: string;
  pages: PageServer;
  /** The arguments every command gets: --db and --config. */
  storage: string[];
  balance(): Promise<number>;
  close(): Promise<void>;
}

export async function cliFixture(credits = 100): Promise<CliFixture> {
  const searxng = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
    const results = q === 'cats' ? [{ title: 'Cats', url: 'https://cats.test/', content: 'All about cats' }] : [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  });
  searxng.listen(0, '127.0.0.1');
  await once(searxng, 'listening');
  const pages = await startPageServer({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/short.html': { body: SHORT },
    '/long.html': { body: longArticle() },
  });
  const db = tempDb();
  const config = join(dirname(db), 'config.json');
  const baseUrl = `http://127.0.0.1:${(searxng.address() as AddressInfo).port}`;
  writeFileSync(
    config,
    JSON.stringify({ localIndex: false, sources: [{ type: 'searxng', baseUrl }], engine: { allowPrivateNetwork: true } }),
  );
  const storage = ['--db', db, '--config', config];
  await mainCaptured(['org', 'create', 'acme', '--credits', String(credits), ...storage]);
  const key = JSON.parse((await mainCaptured(['key', 'create', 'acme', ...storage])).stdout).key as string;
  return {
    db,
    config,
    key,
    pages,
    storage,
    balance: async () => JSON.parse((await mainCaptured(['org', 'list', ...storage])).stdout)[0].balance as number,
    async close() {
      searxng.close();
      await pages.close();
    },
  };
}
