import type { ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { failure, localFetcher, localLoader, MiB, signal } from './helpers.js';

const CAP = 10 * MiB;

/** Writes `total` bytes of 'a' in 64 KiB chunks, honouring backpressure; reports what it handed over. */
function streamBytes(res: ServerResponse, total: number, report: (written: number, finished: boolean) => void): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let written = 0;
  res.on('close', () => report(written, res.writableFinished));
  const pump = (): void => {
    while (written < total && !res.destroyed) {
      const n = Math.min(chunk.length, total - written);
      written += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

describe('the undici fetcher', () => {
  let server: PageServer;
  const reports = new Map<string, { written: number; finished: boolean }>();
  const record = (name: string) => (written: number, finished: boolean) => reports.set(name, { written, finished });
  const closed = async (name: string) => {
    for (let i = 0; i < 200 && !reports.has(name); i++) await new Promise((r) => setTimeout(r, 10));
    return reports.get(name)!;
  };

  beforeAll(async () => {
    const oneMiBGzip = zlib.gzipSync(Buffer.alloc(MiB));
    const oneMiBBrotli = zlib.brotliCompressSync(Buffer.alloc(MiB));
    server = await startPageServer({
      '/exact-cap': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(CAP) });
        streamBytes(res, CAP, record('exact'));
      },
      '/over-cl': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(CAP + 1) });
        streamBytes(res, CAP + 1, record('over-cl'));
      },
      '/over-chunked': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        streamBytes(res, CAP + 1, record('over-chunked'));
      },
      '/endless': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        streamBytes(res, 200 * MiB, record('endless'));
      },
      // 1 GiB of zeros as 1,024 concatenated gzip members of 1 MiB each (~1 MiB on the wire).
      '/gzip-bomb': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        let members = 0;
        res.on('close', () => reports.set('bomb', { written: members, finished: res.writableFinished }));
        const pump = (): void => {
          while (members < 1024 && !res.destroyed) {
            members++;
            if (!res.write(oneMiBGzip)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        pump();
      },
      '/brotli-bomb': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' });
        const stream = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
        stream.pipe(res);
        for (let i = 0; i < 20; i++) stream.write(Buffer.alloc(MiB));
        stream.end();
        void oneMiBBrotli;
      },
      '/gzip': { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, body: zlib.gzipSync('hello gzip') },
      '/deflate': { headers: { 'content-type': 'text/plain', 'content-encoding': 'deflate' }, body: zlib.deflateSync('hello deflate') },
      '/raw-deflate': { headers: { 'content-type': 'text/plain', 'content-encoding': 'deflate' }, body: zlib.deflateRawSync('hello raw') },
      '/deflate-bomb': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' });
        const stream = zlib.createDeflateRaw({ level: 1 });
        stream.pipe(res);
        for (let i = 0; i < 20; i++) stream.write(Buffer.alloc(MiB, 0x20));
        stream.end();
      },
      '/bad-gzip': { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, body: 'this is not gzip at all' },
      '/br': { headers: { 'content-type': 'text/plain', 'content-encoding': 'br' }, body: zlib.brotliCompressSync('hello br') },
      '/gzip-br': {
        headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip, br' },
        body: zlib.brotliCompressSync(zlib.gzipSync('two layers')),
      },
      '/triple': {
        headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip, gzip, gzip' },
        body: zlib.gzipSync(zlib.gzipSync(zlib.gzipSync('x'))),
      },
      '/zstd': { headers: { 'content-type': 'text/plain', 'content-encoding': 'zstd' }, body: 'whatever' },
      '/no-headers': () => {
        // Never answers: the head timeout must fire.
      },
      '/stall-body': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
        res.write('x');
      },
      '/reset': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
        res.write('partial', () => req.socket.destroy());
      },
      '/huge-header': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'x-filler': 'a'.repeat(20 * 1024) });
        res.end('ok');
      },
      '/echo-headers': (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.headers));
      },
    });
  });
  afterAll(() => server.close());

  const fetcher = localFetcher({ headersTimeoutMs: 300, bodyIdleTimeoutMs: 300 });
  afterAll(() => fetcher.close?.());
  const get = (path: string, maxBytes = CAP, truncate = false) => fetcher.fetch(server.url(path), { signal: signal(), maxBytes, truncate });

  it('accepts a body of exactly the cap', async () => {
    const res = await get('/exact-cap');
    expect(res.body.length).toBe(CAP);
  });

  it('refuses Content-Length over the cap before reading the body', async () => {
    const err = await failure(get('/over-cl'));
    expect(err.type).toBe('too_large');
    expect(err.statusCode).toBe(200);
    expect(err.message).toMatch(/not downloaded/);
    const report = await closed('over-cl');
    expect(report.finished).toBe(false);
    expect(report.written).toBeLessThan(CAP + 1);
  });

  it('stops a chunked body one byte over the cap', async () => {
    const err = await failure(get('/over-chunked'));
    expect(err.type).toBe('too_large');
    expect(err.message).toMatch(/download was stopped/);
  });

  it('stops reading an endless body soon after the cap', async () => {
    const err = await failure(get('/endless'));
    expect(err.type).toBe('too_large');
    const report = await closed('endless');
    expect(report.finished).toBe(false);
    expect(report.written).toBeLessThan(40 * MiB);
  });

  it('counts decoded bytes: a gzip bomb stops at the cap with bounded memory', async () => {
    const before = process.memoryUsage();
    const err = await failure(get('/gzip-bomb'));
    const after = process.memoryUsage();
    expect(err.type).toBe('too_large');
    // 1 GiB would have been decoded without the cap; the growth stays near the 10 MiB kept.
    expect(after.arrayBuffers + after.heapUsed - before.arrayBuffers - before.heapUsed).toBeLessThan(200 * MiB);
  });

  it('counts decoded bytes for brotli too', async () => {
    const err = await failure(get('/brotli-bomb'));
    expect(err.type).toBe('too_large');
  });

  it.each([
    ['/gzip', 'hello gzip'],
    ['/deflate', 'hello deflate'],
    ['/br', 'hello br'],
    ['/raw-deflate', 'hello raw'],
    ['/gzip-br', 'two layers'],
  ])('decodes %s', async (path, text) => {
    const res = await get(path);
    expect(Buffer.from(res.body).toString()).toBe(text);
  });

  it('caps raw deflate too, and a corrupt compressed body is a network error', async () => {
    expect((await failure(get('/deflate-bomb'))).type).toBe('too_large');
    expect((await failure(get('/bad-gzip'))).type).toBe('network');
  });

  it('refuses more than two content codings and unknown ones', async () => {
    expect((await failure(get('/triple'))).type).toBe('network');
    expect((await failure(get('/zstd'))).type).toBe('unsupported_content_type');
  });

  it('truncate mode returns the first maxBytes bytes instead of failing', async () => {
    const res = await get('/over-cl', 1000, true);
    expect(res.body.length).toBe(1000);
  });

  it('times out waiting for the response head', async () => {
    // No other bound: the caller's signal never aborts, so only the head timeout can end the fetch (a
    // hang fails the test at its timeout). No wall-clock bound: the machine's load is not the rule.
    const err = await failure(fetcher.fetch(server.url('/no-headers'), { signal: new AbortController().signal, maxBytes: CAP }));
    expect(err.type).toBe('timeout');
  });

  it('times out a stalled body (idle timer)', async () => {
    const err = await failure(get('/stall-body'));
    expect(err.type).toBe('timeout');
    expect(err.statusCode).toBe(200);
  });

  it('maps a reset connection, a refused port and a failed DNS lookup to network', async () => {
    expect((await failure(get('/reset'))).type).toBe('network');
    const refused = await failure(fetcher.fetch('http://127.0.0.1:1/', { signal: signal(), maxBytes: 10 }));
    expect(refused.type).toBe('network');
    const dnsFetcher = localFetcher({
      lookup: (host, _o, cb) => cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), ''),
    });
    const dns = await failure(dnsFetcher.fetch('http://no-such-host.test/', { signal: signal(), maxBytes: 10 }));
    expect(dns.type).toBe('network');
    expect(dns.message).toMatch(/DNS/);
    await dnsFetcher.close?.();
  });

  it('maps response headers over 16 KiB to network', async () => {
    const err = await failure(get('/huge-header'));
    expect(err.type).toBe('network');
    expect(err.message).toMatch(/headers/i);
  });

  it('an already-aborted signal fails at once as timeout', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await failure(fetcher.fetch(server.url('/gzip'), { signal: controller.signal, maxBytes: 10 }));
    expect(err.type).toBe('timeout');
  });

  it('rejects non-http URLs as invalid_url', async () => {
    expect((await failure(fetcher.fetch('ftp://example.com/x', { signal: signal(), maxBytes: 10 }))).type).toBe('invalid_url');
    expect((await failure(fetcher.fetch('not a url', { signal: signal(), maxBytes: 10 }))).type).toBe('invalid_url');
  });

  it('sends its user agent and accepted encodings; a caller header wins', async () => {
    const res = await get('/echo-headers');
    const headers = JSON.parse(Buffer.from(res.body).toString()) as Record<string, string>;
    expect(headers['user-agent']).toMatch(/^websift-test\/1\.0/);
    expect(headers['accept-encoding']).toBe('gzip, deflate, br');
    const custom = await fetcher.fetch(server.url('/echo-headers'), {
      signal: signal(),
      maxBytes: CAP,
      headers: { 'User-Agent': 'other/2' },
    });
    expect(JSON.parse(Buffer.from(custom.body).toString())['user-agent']).toBe('other/2');
  });

  it('a total deadline stops a body trickling 1 byte per 200 ms (the idle timer alone would not)', async () => {
    const trickle = await startPageServer({
      '/trickle': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('.'), 200);
        res.on('close', () => clearInterval(timer));
      },
    });
    const { loader, fetcher: f } = localLoader({ timeoutMs: 800, fetcherOptions: { bodyIdleTimeoutMs: 5000 } });
    // The trickle never ends and never idles 5 s: only the total deadline can end the load (a hang fails
    // the test at its timeout). A lower bound only: load can make the deadline late, never early.
    const started = Date.now();
    const err = await failure(loader.load(trickle.url('/trickle')));
    expect(err.type).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    await f.close?.();
    await trickle.close();
  });
});
