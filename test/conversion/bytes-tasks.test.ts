// Documents given to the pool as bytes (issue 32): decoded in the worker as the fetcher's charset rules
// say, the same Markdown as from the decoded text; websift's own bodies move to the worker (no copy on
// the event loop), anyone else's are copied and left as they were; the `html` format's metadata read
// hands the decoded text back.

import { afterAll, describe, expect, it } from 'vitest';
import { createConversionPool } from '../../src/conversion/conversion-pool.js';
import { decodeBody } from '../../src/fetch/charset.js';
import { handOver } from '../../src/fetch/owned-bytes.js';
import { createEngine } from '../../src/index.js';
import type { Fetcher } from '../../src/ports/fetcher.js';

const never = () => new AbortController().signal;
// windows-1251 declared by <meta>, with a BOM-less body: the worker must sniff it as decodeBody does.
const PAGE = Buffer.concat([
  Buffer.from('<html><head><meta charset="windows-1251"><title>', 'latin1'),
  Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]), // Привет
  Buffer.from(
    '</title></head><body><article><h1>Hello</h1><p>' + 'A paragraph of the page. '.repeat(400) + '</p></article></body></html>',
    'latin1',
  ),
]);
const own = () => new Uint8Array(PAGE); // a buffer of its own, as the body reader makes
const task = (bytes: Uint8Array) => ({ mimeType: 'text/html', finalUrl: 'https://x.test/', bytes, contentType: 'text/html' });

const pool = createConversionPool({ threads: 1 });
afterAll(() => pool.close());

describe('bytes tasks', () => {
  it('decode in the worker: the same Markdown and metadata as the decoded text', async () => {
    const text = decodeBody(PAGE, 'text/html').text;
    const fromText = await pool.convertPage({ mimeType: 'text/html', finalUrl: 'https://x.test/', text }, never());
    const fromBytes = await pool.convertPage(task(own()), never());
    expect(fromBytes).toEqual(fromText);
    expect(fromBytes.metadata.title).toBe('Привет');
  });

  it('websift’s own body is moved (left empty here); any other is copied and left whole', async () => {
    const handed = handOver(own());
    await pool.convertPage(task(handed), never());
    expect(handed.byteLength).toBe(0);
    const theirs = own();
    await pool.convertPage(task(theirs), never());
    expect(Buffer.from(theirs).equals(PAGE)).toBe(true);
  });

  it('want metadata: the decoded text comes back with the metadata', async () => {
    const res = await pool.convertPage({ ...task(handOver(own())), want: 'metadata' }, never());
    expect(res.text).toBe(decodeBody(PAGE, 'text/html').text);
    expect(res).toMatchObject({ markdown: '', metadata: { title: 'Привет' } });
  });
});

describe('a custom Fetcher that returns the same body every time', () => {
  it('serves it again: the engine never empties a buffer it was given', async () => {
    const body = own();
    const fetcher: Fetcher = { fetch: async (url) => ({ url, status: 200, headers: { 'content-type': 'text/html' }, body }) };
    const engine = createEngine({ fetcher, robots: false, rateLimit: false, allowPrivateNetwork: true });
    try {
      await engine.admin.createOrganization('acme', { credits: 10 });
      for (const format of ['markdown', 'html', 'markdown'] as const) {
        const res = await engine.extract({ urls: [`https://cached.test/${format}-${Math.random()}`], format }, { organization: 'acme' });
        expect(res.results[0], format).toMatchObject({ success: true });
        expect(res.results[0]?.[format], format).toContain('A paragraph of the page.');
      }
      expect(Buffer.from(body).equals(PAGE)).toBe(true);
    } finally {
      await engine.close();
    }
  }, 60_000);
});
