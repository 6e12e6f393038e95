// decodeBodyInSlices: the host thread's decoder for big bodies gives decodeBody's text exactly (a
// multi-byte sequence or a surrogate pair cut by a slice edge included), and lets the event loop
// run between its slices.

import { describe, expect, it } from 'vitest';
import { DECODE_SLICE_BYTES, decodeBody, decodeBodyInSlices } from '../../src/fetch/charset.js';

// Slices of 1 MiB: characters of 2, 3 and 4 bytes, so that some cross each slice edge.
const big = (unit: string) => Buffer.from(unit.repeat(Math.ceil((3.5 * DECODE_SLICE_BYTES) / Buffer.byteLength(unit))), 'utf8');

describe('decodeBodyInSlices', () => {
  it.each([
    ['UTF-8 declared by the header', big('é€😀a'), 'text/html; charset=utf-8'],
    ['UTF-8 sniffed (no charset anywhere)', big('é€😀a'), 'text/html'],
    ['invalid UTF-8 falls back to windows-1252', Buffer.concat([big('café'), Buffer.from([0x80, 0x93, 0xff])]), 'text/plain'],
    ['windows-1252 declared', Buffer.from('caf\xe9 \x80 '.repeat(600_000), 'latin1'), 'text/plain; charset=windows-1252'],
    ['UTF-16LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Zoë 😀 '.repeat(400_000), 'utf16le')]), 'text/html'],
    ['a small body (one slice)', Buffer.from('<p>naïve</p>', 'utf8'), undefined],
  ])('%s: the same text and charset as decodeBody', async (_name, bytes, contentType) => {
    const whole = decodeBody(bytes, contentType);
    const sliced = await decodeBodyInSlices(bytes, contentType);
    expect(sliced.charset).toBe(whole.charset);
    expect(sliced.source).toBe(whole.source);
    expect(sliced.text.length).toBe(whole.text.length);
    expect(sliced.text === whole.text).toBe(true);
  });

  it('gives the event loop turns while it decodes', async () => {
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      await decodeBodyInSlices(big('é€😀a'), 'text/html; charset=utf-8');
    } finally {
      clearInterval(timer);
    }
    // Four slices and the join: a timer due all along gets in between them.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});
