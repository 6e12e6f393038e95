// Turns body bytes into text the way browsers do: BOM, then the Content-Type charset, then a
// <meta>/<?xml?> declaration in the first 1,024 bytes, then UTF-8 if the bytes are valid UTF-8, else
// windows-1252. `Response.text()` would always assume UTF-8 (pitfalls).

import { nextTurn } from '../turns.js';

const PRESCAN_BYTES = 1024;

export interface DecodedText {
  text: string;
  /** The encoding used (WHATWG name, e.g. 'utf-8', 'shift_jis', 'windows-1252'). */
  charset: string;
  /** Where the encoding came from. */
  source: 'bom' | 'header' | 'meta' | 'sniff' | 'default';
}

/** The WHATWG encoding name for a label, or null when TextDecoder does not know it. */
export function encodingForLabel(label: string): string | null {
  const clean = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  if (clean === '' || clean === 'x-user-defined') return clean === '' ? null : 'windows-1252';
  try {
    return new TextDecoder(clean).encoding;
  } catch {
    return null;
  }
}

function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/** True when the body starts with a UTF-16 byte-order mark (its NUL bytes are then text, not binary). */
export const hasUtf16Bom = (bytes: Uint8Array): boolean => bomEncoding(bytes)?.startsWith('utf-16') ?? false;

/** The `charset` parameter of a Content-Type header value. */
export function charsetParam(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(contentType ?? '');
  if (!match) return null;
  return (match[2] ?? match[1] ?? '').trim() || null;
}

/**
 * A charset declared in the document head: `<meta charset>`, `<meta http-equiv=Content-Type content=…>`,
 * or an XML declaration's `encoding`. Comments are skipped, as the HTML prescan does.
 */
export function declaredCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, PRESCAN_BYTES))
    .toString('latin1')
    .replace(/<!--[\s\S]*?(-->|$)/g, '');
  const xml = /^\s*<\?xml\s[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml?.[1]) return xml[1];
  for (const tag of head.matchAll(/<meta\s[^>]*>/gi)) {
    const text = tag[0];
    const direct = /\scharset\s*=\s*["']?([^"'\s/>;]+)/i.exec(text);
    if (direct?.[1]) return direct[1];
    if (/http-equiv\s*=\s*["']?content-type/i.test(text)) {
      const content = /content\s*=\s*("([^"]*)"|'([^']*)')/i.exec(text);
      const inner = charsetParam(content?.[2] ?? content?.[3] ?? '');
      if (inner) return inner;
    }
  }
  return null;
}

// WHATWG windows-1252 for bytes 0x80–0x9F. Node 20's TextDecoder('windows-1252') decodes them as
// ISO-8859-1 control characters (a Node bug), so € and curly quotes would be lost.
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

const isValidUtf8 = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

type Encoding = Omit<DecodedText, 'text'>;

/** The encoding the body declares (BOM, Content-Type charset, <meta>/<?xml?>), or null: sniff it. */
function declaredEncoding(bytes: Uint8Array, contentType: string | undefined): Encoding | null {
  const bom = bomEncoding(bytes);
  if (bom) return { charset: bom, source: 'bom' };
  const fromHeader = charsetParam(contentType);
  const headerEncoding = fromHeader ? encodingForLabel(fromHeader) : null;
  if (headerEncoding) return { charset: headerEncoding, source: 'header' };
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  // JSON is UTF-8 by definition (RFC 8259); a <meta> inside it means nothing.
  if (essence !== 'application/json' && !essence.endsWith('+json')) {
    const declared = declaredCharset(bytes);
    let metaEncoding = declared ? encodingForLabel(declared) : null;
    // A document that says it is UTF-16 in ASCII bytes is not: WHATWG reads that as UTF-8.
    if (metaEncoding?.startsWith('utf-16')) metaEncoding = 'utf-8';
    if (metaEncoding) return { charset: metaEncoding, source: 'meta' };
  }
  return null;
}

// TextDecoder strips a matching BOM itself; fatal:false turns bad sequences into U+FFFD.
const decodeAs = (bytes: Uint8Array, charset: string): string =>
  charset === 'windows-1252' ? decodeWindows1252(bytes) : new TextDecoder(charset, { fatal: false }).decode(bytes);

/** Decodes `bytes` given the response's Content-Type header value (may be undefined). */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): DecodedText {
  const declared = declaredEncoding(bytes, contentType);
  if (declared) return { text: decodeAs(bytes, declared.charset), ...declared };
  return isValidUtf8(bytes)
    ? { text: decodeAs(bytes, 'utf-8'), charset: 'utf-8', source: 'sniff' }
    : { text: decodeAs(bytes, 'windows-1252'), charset: 'windows-1252', source: 'default' };
}

/** Bytes decoded per turn of the event loop by decodeBodyInSlices: a few ms of work. */
export const DECODE_SLICE_BYTES = 1024 * 1024;

/**
 * decodeBody for the host thread: the same text, decoded a slice per turn of the event loop (a
 * 10 MiB page is ~50 ms of decoding in one piece otherwise; the slices and their join are ~5–20 ms).
 */
export async function decodeBodyInSlices(bytes: Uint8Array, contentType: string | undefined): Promise<DecodedText> {
  const declared = declaredEncoding(bytes, contentType);
  if (declared) return { text: await decodeSlices(bytes, declared.charset, false), ...declared };
  try {
    return { text: await decodeSlices(bytes, 'utf-8', true), charset: 'utf-8', source: 'sniff' };
  } catch {
    return { text: await decodeSlices(bytes, 'windows-1252', false), charset: 'windows-1252', source: 'default' };
  }
}

async function decodeSlices(bytes: Uint8Array, charset: string, fatal: boolean): Promise<string> {
  if (bytes.length <= DECODE_SLICE_BYTES) return fatal ? new TextDecoder(charset, { fatal }).decode(bytes) : decodeAs(bytes, charset);
  // windows-1252 is one byte per character: its slices decode alone; other decoders carry a cut sequence over.
  const decoder = charset === 'windows-1252' ? null : new TextDecoder(charset, { fatal });
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += DECODE_SLICE_BYTES) {
    const slice = bytes.subarray(at, at + DECODE_SLICE_BYTES);
    await nextTurn();
    parts.push(decoder ? decoder.decode(slice, { stream: at + DECODE_SLICE_BYTES < bytes.length }) : decodeWindows1252(slice));
  }
  await nextTurn();
  return parts.join('');
}
