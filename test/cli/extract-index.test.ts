import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPageServer, type PageServer } from '../../src/testing/index.js';
import { mainCaptured } from './in-process.js';
import { tempDb } from './run-cli.js';

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav>Menu</nav><article><h1>${title}</h1><p>${text}</p></article></body></html>`;

describe('websift extract and index add URL (in-process, through engine.extract)', () => {
  let pages: PageServer;
  let db: string;
  let config: string;
  beforeAll(async () => {
    pages = await startPageServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/kites.html': { body: PAGE('Flying kites', 'A kite needs steady wind of about fifteen kilometres per hour and a long open field without power lines nearby, which matters more than the shape of the kite itself.') },
      '/tea.html': { body: PAGE('Green tea', 'Green tea is steeped below boiling, around seventy to eighty degrees, for two or three minutes, because hotter water draws out bitter tannins from the leaves quickly.') },
    });
    db = tempDb();
    // The pages are on loopback, which the engine refuses unless the config allows it.
    config = join(dirname(db), 'config.json');
    writeFileSync(config, JSON.stringify({ engine: { allowPrivateNetwork: true } }));
    await mainCaptured(['org', 'create', 'acme', '--credits', '20', '--db', db]);
  });
  afterAll(() => pages.close());

  it('extract prints the extract response, html on request', async () => {
    const res = await mainCaptured(['extract', pages.url('/kites.html'), pages.url('/nope.html'), '--db', db, '--config', config]);
    expect(res.code).toBe(0);
    const body = JSON.parse(res.stdout);
    expect(body.results[0].markdown).toMatch(/steady wind/);
    expect(body.results[1]).toMatchObject({ success: false, error_type: 'http', status_code: 404 });
    const html = JSON.parse((await mainCaptured(['extract', pages.url('/tea.html'), '--format', 'html', '--db', db, '--config', config])).stdout);
    expect(html.results[0].html).toMatch(/<h1>Green tea<\/h1>/);
  });

  it('index add URL fetches, indexes and makes the pages searchable; a failed URL gives exit 1', async () => {
    const added = await mainCaptured(['index', 'add', pages.url('/kites.html'), pages.url('/tea.html'), '--db', db, '--config', config]);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ indexed: 2, failed: [] });
    const found = JSON.parse((await mainCaptured(['search', 'tannins', '--db', db])).stdout);
    // (The title is the URL: extract's Markdown carries no <h1>/<title>, see the report.)
    expect(found.results[0]).toMatchObject({ url: pages.url('/tea.html') });
    expect(found.results[0].snippet).toMatch(/tannins/);

    const failed = await mainCaptured(['index', 'add', pages.url('/gone.html'), '--db', db, '--config', config]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).failed[0].source).toBe(pages.url('/gone.html'));
  });

  it('without the config, loopback pages are refused (blocked_address)', async () => {
    const res = await mainCaptured(['extract', pages.url('/kites.html'), '--db', db]);
    expect(JSON.parse(res.stdout).results[0]).toMatchObject({ success: false, error_type: 'blocked_address' });
  });
});
