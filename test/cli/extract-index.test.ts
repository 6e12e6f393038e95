import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageRoute, type PageServer, startPageServer } from '../../src/testing/index.js';
import { nextStartOf, passagesContentLength, topicsPage, topicText } from '../extract/topics-page.js';
import { deleteKeys, testPrefix } from '../redis/redis-kit.js';
import { REDIS_URL, serviceAvailable } from '../support/services.js';
import { mainCaptured } from './in-process.js';
import { runCli, tempDb } from './run-cli.js';

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav>Menu</nav><article><h1>${title}</h1><p>${text}</p></article></body></html>`;

/**
 * A page server with `routes` (and a robots.txt allowing all), a database with organization acme (20
 * credits), and a config that lets the engine reach loopback. Read the fields inside tests.
 */
function cliFixture(routes: Record<string, PageRoute>) {
  const fixture = { pages: undefined as unknown as PageServer, db: '', config: '' };
  beforeAll(async () => {
    fixture.pages = await startPageServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      ...routes,
    });
    fixture.db = tempDb();
    // The pages are on loopback, which the engine refuses unless the config allows it.
    fixture.config = join(dirname(fixture.db), 'config.json');
    writeFileSync(fixture.config, JSON.stringify({ engine: { allowPrivateNetwork: true } }));
    await mainCaptured(['org', 'create', 'acme', '--credits', '20', '--db', fixture.db]);
  });
  afterAll(() => fixture.pages.close());
  return fixture;
}

describe('websift extract and index add URL (in-process, through engine.extract)', () => {
  const f = cliFixture({
    '/kites.html': {
      body: PAGE(
        'Flying kites',
        'A kite needs steady wind of about fifteen kilometres per hour and a long open field without power lines nearby, which matters more than the shape of the kite itself.',
      ),
    },
    '/tea.html': {
      body: PAGE(
        'Green tea',
        'Green tea is steeped below boiling, around seventy to eighty degrees, for two or three minutes, because hotter water draws out bitter tannins from the leaves quickly.',
      ),
    },
    '/blank.html': { body: '<!doctype html><html><head><title>Blank</title></head><body></body></html>' },
    '/links.html': {
      body: PAGE(
        'Kite shops',
        'Two shops sell kites for beginners and both repair torn sails: <a href="/kites.html">flying kites</a>, <a href="https://shop.example/kites?x=1">the shop</a> and <a href="/kites.html">again</a>.',
      ),
    },
  });

  it("extract --include-links adds each page's links (absolute, deduplicated); without it there are none", async () => {
    const url = f.pages.url('/links.html');
    const res = await mainCaptured(['extract', url, '--include-links', '--db', f.db, '--config', f.config]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).results[0].links).toEqual([f.pages.url('/kites.html'), 'https://shop.example/kites?x=1']);
    const plain = JSON.parse((await mainCaptured(['extract', url, '--db', f.db, '--config', f.config])).stdout);
    expect(plain.results[0]).not.toHaveProperty('links');
  });

  it('extract prints the extract response, html on request', async () => {
    const res = await mainCaptured(['extract', f.pages.url('/kites.html'), f.pages.url('/nope.html'), '--db', f.db, '--config', f.config]);
    expect(res.code).toBe(0);
    const body = JSON.parse(res.stdout);
    expect(body.results[0].markdown).toMatch(/steady wind/);
    expect(body.results[1]).toMatchObject({ success: false, error_type: 'http', status_code: 404 });
    const html = JSON.parse(
      (await mainCaptured(['extract', f.pages.url('/tea.html'), '--format', 'html', '--db', f.db, '--config', f.config])).stdout,
    );
    expect(html.results[0].html).toMatch(/<h1>Green tea<\/h1>/);
  });

  it('index add URL fetches, indexes and makes the pages searchable; a failed URL gives exit 1', async () => {
    const added = await mainCaptured([
      'index',
      'add',
      f.pages.url('/kites.html'),
      f.pages.url('/tea.html'),
      '--db',
      f.db,
      '--config',
      f.config,
    ]);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ indexed: 2, failed: [] });
    const found = JSON.parse((await mainCaptured(['search', 'tannins', '--db', f.db])).stdout);
    // (The title is the URL: extract's Markdown carries no <h1>/<title>, see the report.)
    expect(found.results[0]).toMatchObject({ url: f.pages.url('/tea.html') });
    expect(found.results[0].snippet).toMatch(/tannins/);

    const failed = await mainCaptured(['index', 'add', f.pages.url('/gone.html'), '--db', f.db, '--config', f.config]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).failed[0].source).toBe(f.pages.url('/gone.html'));
  });

  it('index add URL skips a page with no text like an empty file, uncharged', async () => {
    const before = JSON.parse((await mainCaptured(['usage', '--db', f.db])).stdout).credits.balance;
    const res = await mainCaptured([
      'index',
      'add',
      f.pages.url('/blank.html'),
      f.pages.url('/kites.html'),
      '--db',
      f.db,
      '--config',
      f.config,
    ]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      indexed: 1,
      failed: [],
      skipped: [{ source: f.pages.url('/blank.html'), reason: 'empty (no text once converted)' }],
    });
    expect(res.stderr).toContain(`skipped ${f.pages.url('/blank.html')}: empty (no text once converted)`);
    const after = JSON.parse((await mainCaptured(['usage', '--db', f.db])).stdout).credits.balance;
    expect(before - after).toBeLessThanOrEqual(1); // the kites page (or a free repeat of it), never the blank one
  });

  it('without the config, loopback pages are refused (blocked_address)', async () => {
    const res = await mainCaptured(['extract', f.pages.url('/kites.html'), '--db', f.db]);
    expect(JSON.parse(res.stdout).results[0]).toMatchObject({ success: false, error_type: 'blocked_address' });
  });
});

describe('websift extract exit codes and index add skip reports', () => {
  const f = cliFixture({
    '/ok.html': {
      body: PAGE(
        'Rope knots',
        'A bowline makes a fixed loop at the end of a line that will not slip or bind under load, and it stays easy to untie after it has been loaded heavily.',
      ),
    },
  });

  it('extract exits 1 when every URL failed, still printing the response; 0 when one succeeded', async () => {
    const failed = await mainCaptured(['extract', f.pages.url('/a.html'), f.pages.url('/b.html'), '--db', f.db, '--config', f.config]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).results).toHaveLength(2);
    expect(failed.stderr).toBe('websift: extract: every URL failed (2 of 2)\n');
    const mixed = await mainCaptured(['extract', f.pages.url('/ok.html'), f.pages.url('/a.html'), '--db', f.db, '--config', f.config]);
    expect(mixed.code).toBe(0);
  });

  it('index add lists skipped files with their reason on stderr, with a summary, and exits 0 when some were added', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'websift-skip-'));
    writeFileSync(join(dir, 'knots.md'), '# Knots\n\nThe sheet bend joins two ropes of different thickness.\n');
    writeFileSync(join(dir, 'photo.jpg'), 'jpeg');
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'nav-only.html'), '<html><body><nav></nav></body></html>');
    const res = await mainCaptured(['index', 'add', dir, '--base-url', 'https://docs.test/', '--db', f.db]);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`skipped ${join(dir, 'empty.txt')}: empty\n`);
    expect(res.stderr).toContain(
      `skipped ${join(dir, 'photo.jpg')}: unsupported type .jpg (only .html, .htm, .xhtml, .md, .markdown and .txt files)\n`,
    );
    expect(res.stderr).toContain(`skipped ${join(dir, 'nav-only.html')}: empty (no text once converted)\n`);
    expect(res.stderr).toMatch(/index add: 1 indexed, 3 skipped, 0 failed \(\d+ document\(s\) in the index\)\n$/);
    const body = JSON.parse(res.stdout);
    expect(body).toMatchObject({ indexed: 1, failed: [] });
    expect(body.skipped.map((s: { source: string }) => s.source).sort()).toEqual([
      join(dir, 'empty.txt'),
      join(dir, 'nav-only.html'),
      join(dir, 'photo.jpg'),
    ]);

    // Every listed file turned out empty once converted: nothing indexed, exit 1.
    const onlyBlank = await mainCaptured(['index', 'add', join(dir, 'nav-only.html'), '--base-url', 'https://docs.test/', '--db', f.db]);
    expect(onlyBlank.code).toBe(1);
    expect(onlyBlank.stderr).toMatch(/index add: 0 indexed, 1 skipped, 0 failed/);
  });
});

const redisUp = await serviceAvailable('Redis');

describe('websift extract and search read pages in parts', () => {
  const f = cliFixture({ '/topics.html': { body: topicsPage } });
  const run = async (args: string[]) => {
    const res = await mainCaptured(args.includes('--config') ? [...args, '--db', f.db] : [...args, '--db', f.db, '--config', f.config]);
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout);
  };

  // One-shot commands share repeat windows only through Redis (docs/cli.md): then reading on is free.
  it.skipIf(!redisUp)('--max-chars and --start-char page through; with --redis reading on is free', async () => {
    const prefix = testPrefix('cli_parts');
    const config = join(dirname(f.db), 'redis-config.json');
    writeFileSync(config, JSON.stringify({ engine: { allowPrivateNetwork: true, redisPrefix: prefix } }));
    const shared = (args: string[]) => run([...args, '--redis', REDIS_URL, '--config', config]);
    try {
      const url = f.pages.url('/topics.html');
      const first = await shared(['extract', url, '--max-chars', '800']);
      expect(first.results[0]).toMatchObject({ success: true, truncated: true });
      expect(first.metadata.credits_used).toBe(1);
      const next = nextStartOf(first.results[0].markdown);
      const on = await shared(['extract', url, '--max-chars', '800', '--start-char', String(next)]);
      expect(on.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
      expect(on.results[0].total_chars).toBe(first.results[0].total_chars);
      expect(on.results[0].markdown.startsWith(first.results[0].markdown.slice(0, 100))).toBe(false);
    } finally {
      await deleteKeys(prefix);
    }
  });

  it('--query gives the passages of the right section', async () => {
    const body = await run(['extract', f.pages.url('/topics.html?q'), '--query', 'kerning serif typeface', '--max-chars', '500']);
    expect(body.results[0].markdown).toContain(topicText('Typography'));
    expect(passagesContentLength(body.results[0].markdown)).toBeLessThanOrEqual(500);
  });

  it('search --content --max-chars: passages picked by the query', async () => {
    await run(['index', 'add', f.pages.url('/topics.html?indexed')]);
    const body = await run(['search', 'penguins', 'antarctic', 'huddle', '--content', '1', '--max-chars', '400']);
    expect(body.results[0].content).toContain(topicText('Penguins'));
    expect(body.results[0]).toMatchObject({ truncated: true });
    expect(passagesContentLength(body.results[0].content)).toBeLessThanOrEqual(400);
  });
});

describe('websift index add, not on a terminal', () => {
  it('writes a progress line every 25 files on stderr, then the summary', async () => {
    const site = mkdtempSync(join(tmpdir(), 'websift-progress-'));
    for (let i = 1; i <= 60; i++) writeFileSync(join(site, `page-${String(i).padStart(2, '0')}.md`), `# Page ${i}\n\nText of page ${i}.\n`);
    const res = await runCli(['index', 'add', site, '--base-url', 'https://docs.test/', '--db', tempDb()]); // stderr is a pipe
    expect(res.code).toBe(0);
    const progress = res.stderr.split('\n').filter((line) => line.startsWith('progress: '));
    // (A slow machine may add a line after a 5 s pause.)
    expect(progress).toEqual(expect.arrayContaining(['progress: 25/60 (41%) page-25.md', 'progress: 50/60 (83%) page-50.md']));
    for (const line of progress) expect(line).toMatch(/^progress: \d+\/60 \(\d+%\) page-\d\d\.md$/);
    expect(res.stderr).toMatch(/index add: 60 indexed, 0 skipped, 0 failed/);
  });
});
