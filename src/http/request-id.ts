// X-Request-Id: the caller's when it is sane (1–128 characters a log line and a header can carry as
// they are), else a new UUID. Every reply carries it; error bodies name it (`request_id`).

import { randomFillSync } from 'node:crypto';

// Nothing here that JSON escapes: the access log writes these ids as they are (test/observe/http-trace.test.ts).
const SANE = /^[A-Za-z0-9._~:/+=@-]{1,128}$/;

export function requestIdOf(header: string | null): string {
  return header !== null && SANE.test(header) ? header : newRequestId();
}

/** UUIDs made per refill of the random pool (node's randomUUID buffers 128). */
const BATCH = 256;
const UUID_CHARS = 36;
const pool = new Uint8Array(16 * BATCH);
const ascii = new Uint8Array(UUID_CHARS * BATCH);
/** `ascii` as a Buffer (the same memory), to decode. */
const asciiBuffer = Buffer.from(ascii.buffer, ascii.byteOffset, ascii.byteLength);
/** The two hex digits of each byte value, as ASCII codes. */
const HIGH = new Uint8Array(256);
const LOW = new Uint8Array(256);
for (let byte = 0; byte < 256; byte++) {
  HIGH[byte] = '0123456789abcdef'.charCodeAt(byte >> 4);
  LOW[byte] = '0123456789abcdef'.charCodeAt(byte & 0x0f);
}
/** The batch's UUIDs, one after another (one flat string). */
let batch = '';
/** The next unused UUID of `batch`; BATCH: to make a new batch. */
let next = BATCH;

/**
 * A random (version 4) UUID, as `crypto.randomUUID()` makes it: 16 bytes of `randomFillSync` entropy, lower-case
 * hex. Made BATCH at a time as ASCII bytes decoded at once into one string, each UUID a slice of it: randomUUID
 * joins 21 pieces into a string tree per call that node:http then flattens to check the header's characters
 * (~0.2 µs a reply), where a slice is flat.
 */
export function newRequestId(): string {
  if (next === BATCH) {
    newBatch();
    next = 0;
  }
  const at = UUID_CHARS * next++;
  return batch.slice(at, at + UUID_CHARS);
}

/** Byte `byte`'s two hex digits at `to`. */
function hex(to: number, byte: number): void {
  ascii[to] = HIGH[byte]!;
  ascii[to + 1] = LOW[byte]!;
}

/** BATCH new UUIDs in `batch`, written unrolled (8-4-4-4-12 digits; a loop over the bytes with its dash and bit tests cost twice as much). */
function newBatch(): void {
  randomFillSync(pool);
  for (let from = 0, to = 0; from < pool.length; from += 16, to += UUID_CHARS) {
    hex(to, pool[from]!);
    hex(to + 2, pool[from + 1]!);
    hex(to + 4, pool[from + 2]!);
    hex(to + 6, pool[from + 3]!);
    ascii[to + 8] = 0x2d;
    hex(to + 9, pool[from + 4]!);
    hex(to + 11, pool[from + 5]!);
    ascii[to + 13] = 0x2d;
    hex(to + 14, (pool[from + 6]! & 0x0f) | 0x40); // version 4
    hex(to + 16, pool[from + 7]!);
    ascii[to + 18] = 0x2d;
    hex(to + 19, (pool[from + 8]! & 0x3f) | 0x80); // the RFC 9562 variant (10xx)
    hex(to + 21, pool[from + 9]!);
    ascii[to + 23] = 0x2d;
    for (let i = 10; i < 16; i++) hex(to + 4 + 2 * i, pool[from + i]!);
  }
  batch = asciiBuffer.toString('latin1');
}
