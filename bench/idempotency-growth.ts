// Benchmark: how much the ledger grows per free keyed repeat (issue 32, item 5). One charged extract of
// 10 × 1 MiB pages (plain text, from a loopback page server), then 40 free repeats of it, each under a
// fresh idempotency key. Measured on a SQLite file: the file's growth (main + WAL) and the bytes of
// answers stored in idempotency_claims, per repeat. Baseline: the charged extract's own answer size
// (what one stored copy costs). Runs against any websift tree with the same engine API (for before/after).
// Run: npx tsx bench/idempotency-growth.ts

import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEngine } from '../src/index.js';
import { startPageServer } from '../src/testing/page-server.js';

const MiB = 1024 * 1024;
const PAGES = 10;
const REPEATS = 40;
const routes: Parameters<typeof startPageServer>[0] = {};
for (let i = 0; i < PAGES; i++) {
  routes[`/p${i}`] = {
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: `page ${i} `.repeat(MiB / 8).slice(0, MiB),
  };
}
const server = await startPageServer(routes);
const dir = mkdtempSync(join(tmpdir(), 'websift-growth-'));
const file = join(dir, 'websift.db');
const engine = createEngine({ database: file, rateLimit: false, allowPrivateNetwork: true, robots: false });
const size = () => statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
const urls = Array.from({ length: PAGES }, (_, i) => server.url(`/p${i}`));

await engine.admin.createOrganization('acme', { credits: 100 });
const paid = await engine.extract({ urls }, { organization: 'acme' });
const answerBytes = Buffer.byteLength(JSON.stringify(paid));
const before = size();
const started = performance.now();
for (let i = 0; i < REPEATS; i++) await engine.extract({ urls }, { organization: 'acme', idempotencyKey: `fresh-${i}` });
const seconds = (performance.now() - started) / 1000;
const grown = size() - before;
await engine.close();
const raw = new Database(file, { readonly: true });
const stored = Number(raw.prepare('SELECT coalesce(sum(length(CAST(response AS BLOB))), 0) FROM idempotency_claims').pluck().get());
raw.close();
await server.close();
rmSync(dir, { recursive: true, force: true });

const per = (n: number) => Math.round(n / REPEATS);
console.log(`one charged answer: ${answerBytes} bytes (${PAGES} credits)`);
console.log(
  `${REPEATS} free keyed repeats in ${seconds.toFixed(1)} s: file +${grown} bytes (${per(grown)} per repeat, ${(per(grown) / answerBytes).toFixed(4)} × one answer); stored answers ${stored} bytes (${per(stored)} per repeat)`,
);
