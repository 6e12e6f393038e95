import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { corpusHandler } from '../../src/cli/corpus.js';
import { documentFromFile, listFiles, loadFile, MAX_FILE_BYTES, urlFor } from '../../src/cli/local-files.js';
import { progressBar } from '../../src/cli/progress.js';

function tree() {
  const dir = mkdtempSync(join(tmpdir(), 'websift-files-'));
  mkdirSync(join(dir, 'guides'));
  mkdirSync(join(dir, '.git'));
  writeFileSync(
    join(dir, 'page one.html'),
    '<html><head><title>Site | Page</title></head><body><nav>Menu</nav><article><h1>Page &amp; heading</h1><p>' +
      'Body text about gardening and soil. '.repeat(12) +
      '</p></article></body></html>',
  );
  writeFileSync(join(dir, 'guides', 'start.md'), '# Getting **started**\n\nInstall it, then run it.\n');
  writeFileSync(join(dir, 'notes.txt'), 'plain notes');
  writeFileSync(join(dir, 'README.md'), '# not indexed');
  writeFileSync(join(dir, '.git', 'config.md'), '# hidden');
  writeFileSync(join(dir, 'image.png'), 'x');
  return dir;
}

describe('local files for index add', () => {
  it('lists indexable files recursively; README.md and other extensions are skipped with a reason, dot-directories silently', () => {
    const dir = tree();
    const listed = listFiles([dir]);
    expect(listed.files.map((f) => f.relative)).toEqual(['guides/start.md', 'notes.txt', 'page one.html']);
    expect(listed.skipped).toEqual([
      { source: join(dir, 'image.png'), reason: expect.stringMatching(/^unsupported type \.png \(only \.html/) },
      { source: join(dir, 'README.md'), reason: 'README.md files are not indexed' },
    ]);
  });

  it('skips empty and too large files, and a file that cannot be read or has no text once converted', () => {
    const dir = tree();
    writeFileSync(join(dir, 'empty.md'), '');
    writeFileSync(join(dir, 'huge.txt'), Buffer.alloc(MAX_FILE_BYTES + 1, 'a'));
    const listed = listFiles([join(dir, 'empty.md'), join(dir, 'huge.txt')]);
    expect(listed.files).toEqual([]);
    expect(listed.skipped).toEqual([
      { source: join(dir, 'empty.md'), reason: 'empty' },
      { source: join(dir, 'huge.txt'), reason: 'too large (10 MiB; the limit is 10 MiB)' },
    ]);
    // A directory named like a page passes the listing but cannot be read as a file.
    mkdirSync(join(dir, 'odd.md'));
    expect(loadFile({ path: join(dir, 'odd.md'), relative: 'odd.md' }, 'https://x.test/odd')).toEqual({
      source: join(dir, 'odd.md'),
      reason: 'unreadable (EISDIR)',
    });
    writeFileSync(join(dir, 'blank.html'), '<html><body>   </body></html>');
    expect(loadFile({ path: join(dir, 'blank.html'), relative: 'blank.html' }, 'https://x.test/b')).toMatchObject({
      reason: 'empty (no text once converted)',
    });
  });

  it('titles: HTML <h1> (entities decoded), Markdown first heading, text file name; HTML keeps main content only', () => {
    const dir = tree();
    const html = documentFromFile(join(dir, 'page one.html'), 'https://x.test/page');
    expect(html.title).toBe('Page & heading');
    expect(html.text).toMatch(/gardening and soil/);
    expect(html.text).not.toMatch(/Menu/);
    expect(documentFromFile(join(dir, 'guides', 'start.md'), 'https://x.test/s').title).toBe('Getting started');
    expect(documentFromFile(join(dir, 'notes.txt'), 'https://x.test/n')).toEqual({
      url: 'https://x.test/n',
      title: 'notes.txt',
      text: 'plain notes',
    });
  });

  it('builds URLs under the base, encoding each path segment', () => {
    expect(urlFor('https://docs.test/root', { path: '', relative: 'guides/page one.html' })).toBe(
      'https://docs.test/root/guides/page%20one.html',
    );
    expect(urlFor('https://docs.test/root/', { path: '', relative: 'a#b.md' })).toBe('https://docs.test/root/a%23b.md');
  });
});

describe('progress', () => {
  const capture = (isTTY: boolean, total: number, run: (bar: ReturnType<typeof progressBar>, clock: { t: number }) => void) => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream & { isTTY: boolean };
    stream.isTTY = isTTY;
    let out = '';
    (stream as unknown as PassThrough).on('data', (d: Buffer) => (out += d.toString()));
    const clock = { t: 0 };
    const bar = progressBar(total, stream, { every: 10, intervalMs: 5_000, now: () => clock.t });
    run(bar, clock);
    bar.done(`indexed ${total}`);
    return out;
  };

  it('draws a bar on a terminal', () => {
    const tty = capture(true, 4, (bar) => {
      for (let i = 0; i < 4; i++) bar.tick(`file ${i}`);
    });
    expect(tty).toContain('[##############################] 4/4');
    expect(tty).toMatch(/indexed 4\n$/);
  });

  it('elsewhere writes a plain line every N items, and after a pause of intervalMs, then the summary', () => {
    const lines = capture(false, 25, (bar, clock) => {
      for (let i = 1; i <= 25; i++) {
        if (i === 13) clock.t += 5_000; // a slow item: the next tick is told though 13 is not a multiple of 10
        bar.tick(`f${i}`);
      }
    }).split('\n');
    expect(lines).toEqual(['progress: 10/25 (40%) f10', 'progress: 13/25 (52%) f13', 'progress: 20/25 (80%) f20', 'indexed 25', '']);
  });

  it('a short run writes the summary only', () => {
    expect(capture(false, 4, (bar) => [1, 2, 3, 4].forEach(() => bar.tick()))).toBe('indexed 4\n');
  });
});

describe('demo corpus server', () => {
  it('serves listed corpus files and robots.txt, nothing else', async () => {
    const dir = tree();
    const handle = corpusHandler(join(dir, 'guides'));
    const server = createServer((req, res) => {
      if (!handle(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${base}/corpus/start.md`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await page.text()).toMatch(/Getting/);
      expect(await (await fetch(`${base}/robots.txt`)).text()).toMatch(/Allow: \//);
      expect((await fetch(`${base}/corpus/..%2Fnotes.txt`)).status).toBe(404);
      expect((await fetch(`${base}/corpus/missing.md`)).status).toBe(404);
      expect((await fetch(`${base}/corpus/%E0%A4%A.md`)).status).toBe(404); // malformed escape
      expect((await fetch(`${base}/corpus/start.md`, { method: 'POST' })).status).toBe(405);
      expect((await fetch(`${base}/api/usage`)).status).toBe(418); // left to the API
    } finally {
      server.close();
    }
  });
});
