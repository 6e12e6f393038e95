// Big answers (issue 32): an answer whose strings hold a megabyte or more goes out as UTF-8 pieces made
// a turn of the event loop at a time: the same JSON text as JSON.stringify, the right content-length
// through both bindings, and no turn that holds the host thread for long.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeLoop } from '../../bench/lib/loop-probe.js';
import { ordinaryPage } from '../../bench/lib/ordinary-pages.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { createFetchHandler, createNodeHandler } from '../../src/http/index.js';
import { jsonPieces, stringChars } from '../../src/http/json-pieces.js';
import { answerReply, jsonReply } from '../../src/http/responses.js';
import { type PageServer, startPageServer } from '../../src/testing/index.js';
import type { Engine } from '../../src/types/index.js';

const text = (pieces: Uint8Array[]) => Buffer.concat(pieces).toString('utf8');
const PART = 256 * 1024; // json-pieces' string part

describe('jsonPieces', () => {
  it.each([
    [
      'JSON data of every kind',
      { a: 1, b: 'x"\\\n\u0001\u2028', c: [1, undefined, () => 1, null, true], d: undefined, e: NaN, f: -Infinity, g: { h: [] }, i: {} },
    ],
    ['toJSON (a Date)', { at: new Date(0), nested: [new Date(1)] }],
    ['a surrogate pair across a part edge', { s: 'a'.repeat(PART - 1) + '😀' + 'b'.repeat(PART) }],
    ['a lone surrogate and escapes across part edges', { s: '"'.repeat(PART + 3) + '\ud800' + 'é'.repeat(PART) + '\udc00' }],
    [
      'many pages of non-ASCII text',
      {
        results: [0, 1, 2].map((i) => ({
          url: `https://x.test/${i}`,
          markdown: ordinaryPage(3 * 1024 * 1024, i),
          links: ['https://a.test/'],
        })),
      },
    ],
    ['top-level arrays and strings', ['x'.repeat(3 * PART), 1, 'y']],
  ])('%s: the same text as JSON.stringify', async (_name, value) => {
    expect(text(await jsonPieces(value))).toBe(JSON.stringify(value));
  });

  it('a BigInt throws, as JSON.stringify does', async () => {
    await expect(jsonPieces({ n: 1n })).rejects.toThrow(TypeError);
  });

  it('stringChars counts the characters of every string the JSON holds: nested, own keys only, and stops past its limit', () => {
    const inherited = Object.create({ skipped: 'x'.repeat(50) }) as Record<string, unknown>;
    inherited.own = 'abc';
    const answer = { a: 'ab', n: 1, z: null, list: ['cde', [{ f: 'g' }], 7, undefined], nested: { inherited } };
    expect(stringChars(answer)).toBe(2 + 3 + 1 + 3);
    // Many small strings deep in the answer add up to a big one.
    const wide = { results: Array.from({ length: 2000 }, () => ({ page: { text: 'y'.repeat(1000) } })) };
    expect(stringChars(wide)).toBeGreaterThan(1024 * 1024);
    expect(stringChars(wide, 10_000)).toBeLessThan(20_000);
  });

  it('small answers stay one string (JSON.stringify), big ones are pieces', async () => {
    expect((await answerReply(200, { a: 'x'.repeat(1000) })).body).toBe(JSON.stringify({ a: 'x'.repeat(1000) }));
    const big = await answerReply(200, { a: 'x'.repeat(3 * 1024 * 1024) });
    expect(Array.isArray(big.body) && big.body.length).toBeGreaterThanOrEqual(3);
  });

  it('a ~30 MB answer: no turn holds the host thread for 100 ms (in one piece it does)', async () => {
    const answer = {
      success: true,
      results: [0, 1, 2].map((i) => ({ url: `https://x.test/${i}`, success: true, html: ordinaryPage(10 * 1024 * 1024, i) })),
    };
    const pieces = await probeLoop(async () => answerReply(200, answer));
    const whole = await probeLoop(async () => {
      const reply = jsonReply(200, answer);
      return Buffer.byteLength(reply.body as string); // what the node binding does with it next
    });
    console.log('30 MB answer, host thread busy max (ms): pieces', pieces.busyMaxMs.toFixed(0), 'one piece', whole.busyMaxMs.toFixed(0));
    expect(text(pieces.result.body as Uint8Array[])).toBe(JSON.stringify(answer));
    expect(pieces.busyMaxMs).toBeLessThanOrEqual(100);
    // The structure, not this machine's speed: the one-piece answer stalls several times longer.
    expect(whole.busyMaxMs).toBeGreaterThan(2 * pieces.busyMaxMs);
  }, 60_000);
});

describe('a big crawl answer through both bindings', () => {
  let pages: PageServer;
  let engine: Engine;
  let key: string;
  let server: Server;
  const page = ordinaryPage(3 * 1024 * 1024, 7);
  beforeAll(async () => {
    pages = await startPageServer({ '/big': { body: Buffer.from(page, 'utf8') } });
    engine = createEngine({ allowPrivateNetwork: true, robots: false, rateLimit: false });
    await engine.admin.createOrganization('acme', { credits: 100 });
    key = await engine.admin.createApiKey('acme');
    server = createServer(createNodeHandler(engine));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => {
      server.closeAllConnections();
      server.close(r);
    });
    await engine.close();
    await pages.close();
  });
  const request = (path: string) => ({
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ urls: [pages.url(path)], format: 'html' }),
  });

  it('node:http: the page as fetched, with a content-length that matches the bytes', async () => {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/crawl`, request('/big'));
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const body = JSON.parse(bytes.toString('utf8'));
    expect(body.results[0]).toMatchObject({ success: true, html: page });
  }, 60_000);

  it('fetch handler: the same', async () => {
    const res = await createFetchHandler(engine)(new Request('http://websift.test/api/crawl', request('/big?again')));
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8')).results[0]).toMatchObject({ success: true, html: page });
  }, 60_000);
});
