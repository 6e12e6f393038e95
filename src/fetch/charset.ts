// Turns body bytes into text the way browsers do: BOM, then the Content-Type charset, then a
// <meta>/<?xml?> declaration in the first 1,024 bytes, then UTF-8 if the bytes are valid UTF-8, else
// windows-1252. `Response.text()` would always assume UTF-8 (pitfalls).

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
  const clean = label.trim().replace(/^["']|["']$/g, '').toLowerCase();
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
  const head = Buffer.from(bytes.subarray(0, PRESCAN_BYTES)).toString('latin1').replace(/<!--[\s\S]*?(-->|$)/g, '');
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

/** Decodes `bytes` given the response's Content-Type header value (may be undefined). */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): DecodedText {
  const decode = (charset: string, source: DecodedText['source']): DecodedText => ({
    // TextDecoder strips a matching BOM itself; fatal:false turns bad sequences into U+FFFD.
    text: charset === 'windows-1252' ? decodeWindows1252(bytes) : new TextDecoder(charset, { fatal: false }).decode(bytes),
    charset,
    source,
  });
  const bom = bomEncoding(bytes);
  if (bom) return decode(bom, 'bom');
  const fromHeader = charsetParam(contentType);
  const headerEncoding = fromHeader ? encodingForLabel(fromHeader) : null;
  if (headerEncoding) return decode(headerEncoding, 'header');
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  // JSON is UTF-8 by definition (RFC 8259); a <meta> inside it means nothing.
  if (essence !== 'application/json' && !essence.endsWith('+json')) {
    const declared = declaredCharset(bytes);
    let metaEncoding = declared ? encodingForLabel(declared) : null;
    // A document that says it is UTF-16 in ASCII bytes is not: WHATWG reads that as UTF-8.
    if (metaEncoding?.startsWith('utf-16')) metaEncoding = 'utf-8';
    if (metaEncoding) return decode(metaEncoding, 'meta');
  }
  return isValidUtf8(bytes) ? decode('utf-8', 'sniff') : decode('windows-1252', 'default');
}
