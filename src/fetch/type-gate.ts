// Which documents websift extracts: text formats only (spec: HTML/XHTML, plain text, Markdown, CSV,
// JSON incl. +json, XML incl. RSS/Atom/sitemaps). Checked three times, cheapest first: by URL extension
// before any request, by Content-Type, then by sniffing the first bytes, so a binary served as
// text/html is still refused.

import { fileTypeFromBuffer } from 'file-type';
import { hasUtf16Bom } from './charset.js';

// Extensions whose documents are never text we extract. Unknown extensions (.php, .aspx, none) pass.
const BINARY_EXTENSIONS = new Set(
  (
    'pdf ps eps ' +
    'png jpg jpeg jpe jfif gif webp avif apng bmp ico cur tif tiff svg svgz heic heif jxl psd raw cr2 nef dng ' +
    'mp4 m4v mov avi mkv webm wmv flv mpg mpeg 3gp ogv ts m2ts ' +
    'mp3 m4a aac wav flac ogg oga opus wma mid midi aiff ' +
    'zip rar 7z tar gz tgz bz2 tbz2 xz txz zst lz lzma z cab iso dmg jar war apk ipa deb rpm ' +
    'doc docx docm dot dotx xls xlsx xlsm xlsb ppt pptx pptm pps ppsx odt ods odp odg rtf pages numbers key epub mobi ' +
    'woff woff2 ttf otf eot ' +
    'exe dll msi bin so dylib class o a wasm pyc img dat sqlite db ' +
    'swf'
  ).split(' '),
);

/** The lower-case extension of the URL's last path segment ('' when none). */
export function urlExtension(url: URL): string {
  let segment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  try {
    segment = decodeURIComponent(segment);
  } catch {
    // Keep the raw segment: a malformed escape is not an extension question.
  }
  const dot = segment.lastIndexOf('.');
  return dot < 0
    ? ''
    : segment
        .slice(dot + 1)
        .trim()
        .toLowerCase();
}

/** Why the URL is refused on its extension alone (before any request), or null. */
export function extensionRejection(url: URL): string | null {
  const ext = urlExtension(url);
  return BINARY_EXTENSIONS.has(ext) ? `Unsupported file type .${ext} (only text documents are extracted)` : null;
}

const ACCEPTED_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'text/markdown',
  'text/x-markdown',
  'text/csv',
  'application/json',
  'text/json',
  'text/xml',
  'application/xml',
]);

/** The Content-Type essence: lower-case, without parameters ('' when absent). */
export const mimeEssence = (contentType: string | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** 'accept' a text type, 'reject' anything else, or 'sniff' when no type was sent. */
export function judgeContentType(essence: string): 'accept' | 'reject' | 'sniff' {
  if (essence === '') return 'sniff';
  if (ACCEPTED_TYPES.has(essence)) return 'accept';
  const [top] = essence.split('/');
  // +json and +xml suffixes (ld+json, rss+xml, atom+xml…), but an image is an image (image/svg+xml).
  if ((essence.endsWith('+json') || essence.endsWith('+xml')) && top !== 'image') return 'accept';
  return 'reject';
}

const SNIFF_BYTES = 1445;

/** The WHATWG "binary data byte" rule: control bytes other than TAB, LF, FF, CR and ESC mean binary. */
export function hasBinaryBytes(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) {
    const b = bytes[i]!;
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return true;
  }
  return false;
}

const headText = (bytes: Uint8Array): string =>
  Buffer.from(bytes.subarray(0, 4096))
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '');

/** XML whose root element is <svg>: an image, whatever it was served as. */
const isSvgDocument = (head: string): boolean =>
  /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>\s*)*<svg[\s>]/i.test(head);

/** Why the body is binary (magic number, control bytes, SVG root), or null when it is text. */
export async function binaryReason(bytes: Uint8Array): Promise<string | null> {
  if (hasUtf16Bom(bytes)) return null;
  const detected = await fileTypeFromBuffer(bytes.subarray(0, 4100));
  if (detected && judgeContentType(detected.mime) !== 'accept') return `The body is ${detected.mime} data`;
  if (hasBinaryBytes(bytes)) return 'The body contains binary data';
  if (isSvgDocument(headText(bytes))) return 'The body is an SVG image';
  return null;
}

/** A text type for a body that came without Content-Type (after binaryReason said it is text). */
export function sniffTextType(bytes: Uint8Array): string {
  const head = headText(bytes).trimStart();
  if (/^<\?xml[\s?]/i.test(head)) return 'application/xml';
  if (
    /^(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body|title|meta|script|div|p|table|h[1-6]|a|br|b|iframe|font|style)[\s>/]/i.test(
      head,
    )
  ) {
    return 'text/html';
  }
  if (/^[{[]/.test(head)) {
    try {
      JSON.parse(new TextDecoder().decode(bytes));
      return 'application/json';
    } catch {
      // Not JSON after all: plain text.
    }
  }
  return 'text/plain';
}
