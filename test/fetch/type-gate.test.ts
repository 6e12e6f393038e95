import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionRejection, hasBinaryBytes, judgeContentType, urlExtension } from '../../src/fetch/type-gate.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { decoded, failure, localLoader } from './helpers.js';

// The first bytes of a real PNG (signature + IHDR chunk) followed by image data.
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(200, 0x41),
]);

describe('extension gating', () => {
  it.each([
    'https://x.test/report.pdf',
    'https://x.test/REPORT.PDF',
    'https://x.test/logo.svg',
    'https://x.test/a/b/photo.jpeg?size=2',
    'https://x.test/clip.mp4',
    'https://x.test/song.mp3',
    'https://x.test/archive.tar.gz',
    'https://x.test/data.zip',
    'https://x.test/sheet.xlsx',
    'https://x.test/slides.pptx',
    'https://x.test/font.woff2',
    'https://x.test/setup.exe',
    'https://x.test/file%2Epdf',
  ])('refuses %s', (url) => {
    expect(extensionRejection(new URL(url))).not.toBeNull();
  });

  it.each([
    'https://x.test/',
    'https://x.test/page',
    'https://x.test/page.html',
    'https://x.test/index.php?file=a.pdf',
    'https://x.test/feed.xml',
    'https://x.test/data.json',
    'https://x.test/notes.md',
    'https://x.test/table.csv',
    'https://x.test/pdf',
    'https://x.test/v1.2/docs',
  ])('lets %s through', (url) => {
    expect(extensionRejection(new URL(url))).toBeNull();
  });

  it('reads the last segment only', () => {
    expect(urlExtension(new URL('https://x.test/a.pdf/b'))).toBe('');
    expect(urlExtension(new URL('https://x.test/a/b.PNG'))).toBe('png');
  });
});

describe('content-type judgement', () => {
  it.each([
    'text/html',
    'application/xhtml+xml',
    'text/plain',
    'text/markdown',
    'text/csv',
    'application/json',
    'application/ld+json',
    'application/geo+json',
    'text/xml',
    'application/xml',
    'application/rss+xml',
    'application/atom+xml',
  ])('accepts %s', (type) => expect(judgeContentType(type)).toBe('accept'));

  it.each([
    'application/pdf',
    'image/png',
    'image/svg+xml',
    'video/mp4',
    'audio/mpeg',
    'application/zip',
    'application/octet-stream',
    'font/woff2',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/css',
    'application/javascript',
  ])('rejects %s', (type) => expect(judgeContentType(type)).toBe('reject'));

  it('sniffs when no type is sent', () => expect(judgeContentType('')).toBe('sniff'));

  it('applies the WHATWG binary-byte rule to the first 1,445 bytes only', () => {
    expect(hasBinaryBytes(Buffer.from('plain\ttext\r\n\x0c\x1b'))).toBe(false);
    for (const b of [0x00, 0x08, 0x0b, 0x0e, 0x1a, 0x1c, 0x1f]) expect(hasBinaryBytes(Buffer.from([0x41, b]))).toBe(true);
    expect(hasBinaryBytes(Buffer.concat([Buffer.alloc(1445, 0x41), Buffer.from([0])]))).toBe(false);
  });
});

describe('the loader gates by extension, content type and bytes', () => {
  let server: PageServer;
  beforeAll(async () => {
    const samples: Record<string, [string, string]> = {
      '/html': ['text/html; charset=utf-8', '<!doctype html><p>hi</p>'],
      '/xhtml': ['application/xhtml+xml', '<html xmlns="http://www.w3.org/1999/xhtml"><p>hi</p></html>'],
      '/plain': ['text/plain', 'just text'],
      '/markdown': ['text/markdown; charset=utf-8', '# Title'],
      '/csv': ['text/csv', 'a,b\n1,2\n'],
      '/json': ['application/json', '{"a":1}'],
      '/ld': ['application/ld+json', '{"@context":"https://schema.org"}'],
      '/xml': ['application/xml', '<?xml version="1.0"?><root/>'],
      '/textxml': ['text/xml', '<?xml version="1.0"?><urlset/>'],
      '/rss': ['application/rss+xml', '<?xml version="1.0"?><rss version="2.0"><channel/></rss>'],
      '/atom': ['application/atom+xml', '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"/>'],
    };
    const routes = Object.fromEntries(
      Object.entries(samples).map(([path, [type, body]]) => [path, { headers: { 'content-type': type }, body }]),
    );
    server = await startPageServer({
      ...routes,
      '/png-as-html': { headers: { 'content-type': 'text/html' }, body: PNG },
      '/png-untyped': (_req, res) => {
        res.removeHeader('content-type');
        res.end(PNG);
      },
      '/control-bytes': { headers: { 'content-type': 'text/plain' }, body: Buffer.from('abc\x00\x01\x02def') },
      '/pdf-typed': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.7 fake' },
      '/svg-typed': { headers: { 'content-type': 'image/svg+xml' }, body: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
      '/svg-as-xml': { headers: { 'content-type': 'text/xml' }, body: '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>' },
      '/two-types': (_req, res) => {
        res.setHeader('content-type', ['application/octet-stream', 'text/plain; charset=utf-8']);
        res.end('the last type wins');
      },
      '/octet': { headers: { 'content-type': 'application/octet-stream' }, body: 'text really' },
      '/untyped-html': (_req, res) => res.end('<!DOCTYPE html><title>x</title>'),
      '/untyped-json': (_req, res) => res.end('{"x":[1,2]}'),
      '/untyped-xml': (_req, res) => res.end('<?xml version="1.0"?><rss/>'),
      '/untyped-text': (_req, res) => res.end('hello world'),
      '/report.pdf': { headers: { 'content-type': 'text/html' }, body: '<p>would be fine</p>' },
      '/utf16': {
        headers: { 'content-type': 'text/html' },
        body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>hi</p>', 'utf16le')]),
      },
    });
  });
  afterAll(() => server.close());
  const { loader, fetcher } = localLoader();
  afterAll(() => fetcher.close?.());

  it.each([
    ['/html', 'text/html'],
    ['/xhtml', 'application/xhtml+xml'],
    ['/plain', 'text/plain'],
    ['/markdown', 'text/markdown'],
    ['/csv', 'text/csv'],
    ['/json', 'application/json'],
    ['/ld', 'application/ld+json'],
    ['/xml', 'application/xml'],
    ['/textxml', 'text/xml'],
    ['/rss', 'application/rss+xml'],
    ['/atom', 'application/atom+xml'],
  ])('accepts %s as %s', async (path, mime) => {
    const doc = await loader.load(server.url(path));
    expect(doc.mimeType).toBe(mime);
    expect(decoded(doc).text.length).toBeGreaterThan(0);
  });

  it.each(['/png-as-html', '/png-untyped', '/control-bytes', '/pdf-typed', '/svg-typed', '/svg-as-xml', '/octet'])(
    'refuses %s as unsupported_content_type with its status',
    async (path) => {
      const err = await failure(loader.load(server.url(path)));
      expect(err.type).toBe('unsupported_content_type');
      expect(err.statusCode).toBe(200);
    },
  );

  it('takes the last of repeated Content-Type headers', async () => {
    expect((await loader.load(server.url('/two-types'))).mimeType).toBe('text/plain');
  });

  it('names the sniffed type of a PNG served as text/html', async () => {
    expect((await failure(loader.load(server.url('/png-as-html')))).message).toContain('image/png');
  });

  it('refuses a .pdf URL before any request', async () => {
    const before = server.requests.length;
    const err = await failure(loader.load(server.url('/report.pdf')));
    expect(err.type).toBe('unsupported_content_type');
    expect(err.statusCode).toBe(0);
    expect(server.requests.length).toBe(before);
  });

  it.each([
    ['/untyped-html', 'text/html'],
    ['/untyped-json', 'application/json'],
    ['/untyped-xml', 'application/xml'],
    ['/untyped-text', 'text/plain'],
  ])('sniffs %s without Content-Type as %s', async (path, mime) => {
    expect((await loader.load(server.url(path))).mimeType).toBe(mime);
  });

  it('UTF-16 with a BOM is text, not binary', async () => {
    const doc = decoded(await loader.load(server.url('/utf16')));
    expect(doc.text).toBe('<p>hi</p>');
    expect(doc.charset).toBe('utf-16le');
  });
});
