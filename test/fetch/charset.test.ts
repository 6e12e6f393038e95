import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charsetParam, declaredCharset, decodeBody, encodingForLabel } from '../../src/fetch/charset.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { decoded, localLoader } from './helpers.js';

// "Привет" in windows-1251 and "こんにちは" in Shift_JIS, written out byte by byte.
const PRIVET_1251 = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
const KONNICHIWA_SJIS = Buffer.from([0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd]);
const ascii = (s: string) => Buffer.from(s, 'latin1');

describe('charset detection', () => {
  it('reads the charset parameter', () => {
    expect(charsetParam('text/html; charset=Shift_JIS')).toBe('Shift_JIS');
    expect(charsetParam('text/html;charset="utf-8"')).toBe('utf-8');
    expect(charsetParam('text/html')).toBeNull();
  });

  it('finds <meta charset>, http-equiv and <?xml encoding>, skipping comments', () => {
    expect(declaredCharset(ascii('<html><head><meta charset="windows-1251">'))).toBe('windows-1251');
    expect(declaredCharset(ascii('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'))).toBe('koi8-r');
    expect(declaredCharset(ascii('<?xml version="1.0" encoding="ISO-8859-2"?><r/>'))).toBe('ISO-8859-2');
    expect(declaredCharset(ascii('<!-- <meta charset="koi8-r"> --><meta charset=utf-8>'))).toBe('utf-8');
    expect(declaredCharset(ascii(`${' '.repeat(1100)}<meta charset="koi8-r">`))).toBeNull();
  });

  it('maps labels like TextDecoder and refuses unknown ones', () => {
    expect(encodingForLabel('latin1')).toBe('windows-1252');
    expect(encodingForLabel('SJIS')).toBe('shift_jis');
    expect(encodingForLabel('x-user-defined')).toBe('windows-1252');
    expect(encodingForLabel('no-such-charset')).toBeNull();
  });

  it('BOM beats the header, the header beats <meta>', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<meta charset="koi8-r">é', 'utf8')]);
    const viaBom = decodeBody(bom, 'text/html; charset=windows-1251');
    expect(viaBom.charset).toBe('utf-8');
    expect(viaBom.text).toBe('<meta charset="koi8-r">é');
    const viaHeader = decodeBody(Buffer.concat([ascii('<meta charset="koi8-r">'), PRIVET_1251]), 'text/html; charset=windows-1251');
    expect(viaHeader.text).toContain('Привет');
  });

  it('an unknown header label falls through to <meta>, then to sniffing', () => {
    const doc = Buffer.concat([ascii('<meta charset="windows-1251">'), PRIVET_1251]);
    expect(decodeBody(doc, 'text/html; charset=bogus').text).toContain('Привет');
    expect(decodeBody(Buffer.from('naïve', 'utf8'), 'text/plain; charset=bogus').text).toBe('naïve');
  });

  it('valid UTF-8 without a declaration is UTF-8; other bytes are windows-1252', () => {
    expect(decodeBody(Buffer.from('Grüße', 'utf8'), 'text/plain')).toMatchObject({ text: 'Grüße', charset: 'utf-8' });
    expect(decodeBody(Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65, 0x80]), 'text/plain')).toMatchObject({
      text: 'Grüße€',
      charset: 'windows-1252',
    });
  });

  it('a <meta> saying UTF-16 in ASCII bytes means UTF-8; JSON ignores <meta>', () => {
    expect(decodeBody(ascii('<meta charset="utf-16"><p>x</p>'), 'text/html').charset).toBe('utf-8');
    expect(decodeBody(Buffer.from('{"a":"<meta charset=koi8-r>ü"}', 'utf8'), 'application/json').text).toContain('ü');
  });
});

describe('the loader decodes like a browser', () => {
  let server: PageServer;
  beforeAll(async () => {
    server = await startPageServer({
      '/cp1251-meta': {
        headers: { 'content-type': 'text/html' },
        body: Buffer.concat([ascii('<html><head><meta charset="windows-1251"><title>'), PRIVET_1251, ascii('</title>')]),
      },
      '/sjis-header': {
        headers: { 'content-type': 'text/plain; charset=Shift_JIS' },
        body: KONNICHIWA_SJIS,
      },
      '/utf8-bom': {
        headers: { 'content-type': 'text/html' },
        body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Zoë 😀</p>', 'utf8')]),
      },
    });
  });
  afterAll(() => server.close());
  const { loader, fetcher } = localLoader();
  afterAll(() => fetcher.close?.());

  it('windows-1251 declared by <meta>', async () => {
    const doc = decoded(await loader.load(server.url('/cp1251-meta')));
    expect(doc.charset).toBe('windows-1251');
    expect(doc.text).toContain('<title>Привет</title>');
  });

  it('Shift_JIS declared by the header', async () => {
    const doc = decoded(await loader.load(server.url('/sjis-header')));
    expect(doc.charset).toBe('shift_jis');
    expect(doc.text).toBe('こんにちは');
  });

  it('UTF-8 with a BOM (the BOM is not part of the text)', async () => {
    const doc = decoded(await loader.load(server.url('/utf8-bom')));
    expect(doc.charset).toBe('utf-8');
    expect(doc.text).toBe('<p>Zoë 😀</p>');
  });
});
