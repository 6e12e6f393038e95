import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { corpusHandler } from '../../src/cli/corpus.js';
import { documentFromFile, listFiles, urlFor } from '../../src/cli/local-files.js';
import { progressBar } from '../../src/cli/progress.js';

function tree() {
  const dir = mkdtempSync(join(tmpdir(), 'websift-files-'));
  mkdirSync(join(dir, 'guides'));
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'page one.html'), '<html><head><title>Site | Page</title></head><body><nav>Menu</nav><article><h1>Page &amp; heading</h1><p>' + 'Body text about gardening and soil. '.repeat(12) + '</p></article></body></html>');
  writeFileSync(join(dir, 'guides', 'start.md'), '# Getting **started**\n\nInstall it, then run it.\n');
  writeFileSync(join(dir, 'notes.txt'), 'plain notes');
  writeFileSync(join(dir, 'README.md'), '# not indexed');
  writeFileSync(join(dir, '.git', 'config.md'), '# hidden');
  writeFileSync(join(dir, 'image.png'), 'x');
  return dir;
}

describe('local files for index add', () => {
  it('lists indexable files recursively, skipping README.md, dot-directories and other extensions', () => {
    const dir = tree();
    expect(listFiles([dir]).map((f) => f.relative)).toEqual(['guides/start.md', 'notes.txt', 'page one.html']);
  });

  it('titles: HTML <h1> (entities decoded), Markdown first heading, text file name; HTML keeps main content only', () => {
    const dir = tree();
    const html = documentFromFile(join(dir, 'page one.html'), 'https://x.test/page');
    expect(html.title).toBe('Page & heading');
    expect(html.text).toMatch(/gardening and soil/);
    expect(html.text).not.toMatch(/Menu/);
    expect(documentFromFile(join(dir, 'guides', 'start.md'), 'https://x.test/s').title).toBe('Getting started');
    expect(documentFromFile(join(dir, 'notes.txt'), 'https://x.test/n')).toEqual({ url: 'https://x.test/n', title: 'notes.txt', text: 'plain notes' });
  });

  it('builds URLs under the base, encoding each path segment', () => {
    expect(urlFor('https://docs.test/root', { path: '', relative: 'guides/page one.html' })).toBe('https://docs.test/root/guides/page%20one.html');
    expect(urlFor('https://docs.test/root/', { path: '', relative: 'a#b.md' })).toBe('https://docs.test/root/a%23b.md');
  });
});

describe('progress bar', () => {
  it('draws on a terminal and stays quiet (summary only) otherwise', () => {
    const capture = (isTTY: boolean) => {
      const stream = new PassThrough() as unknown as NodeJS.WriteStream & { isTTY: boolean };
      stream.isTTY = isTTY;
      let out = '';
      (stream as unknown as PassThrough).on('data', (d: Buffer) => (out += d.toString()));
      const bar = progressBar(4, stream);
      for (let i = 0; i < 4; i++) bar.tick(`file ${i}`);
      bar.done('indexed 4');
      return out;
    };
    const tty = capture(true);
    expect(tty).toContain('[##############################] 4/4');
    expect(tty).toMatch(/indexed 4\n$/);
    expect(capture(false)).toBe('indexed 4\n');
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
