// X-Request-Id: the caller's when it is sane (1–128 characters a log line and a header can carry as
// they are), else a new UUID. Every reply carries it; error bodies name it (`request_id`).

import { randomFillSync } from 'node:crypto';

const SANE = /^[A-Za-z0-9._~:/+=@-]{1,128}$/;

export function requestIdOf(header: string | null): string {
  return header !== null && SANE.test(header) ? header : newRequestId();
}

/** UUIDs made per refill of the random pool (node's randomUUID buffers 128). */
const BATCH = 256;
const UUID_CHARS = 36;
const pool = new Uint8Array(16 * BATCH);
const ascii = Buffer.alloc(UUID_CHARS * BATCH);
const HEX = Buffer.from('0123456789abcdef', 'latin1');
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

function newBatch(): void {
  randomFillSync(pool);
  let to = 0;
  for (let from = 0; from < pool.length; from += 16) {
    for (let i = 0; i < 16; i++) {
      // Dashes before bytes 4, 6, 8 and 10: 8-4-4-4-12 hex digits.
      if (i === 4 || i === 6 || i === 8 || i === 10) ascii[to++] = 0x2d;
      let byte = pool[from + i]!;
      // Version 4 in byte 6, the RFC 9562 variant (10xx) in byte 8.
      if (i === 6) byte = (byte & 0x0f) | 0x40;
      else if (i === 8) byte = (byte & 0x3f) | 0x80;
      ascii[to++] = HEX[byte >> 4]!;
      ascii[to++] = HEX[byte & 0x0f]!;
    }
  }
  batch = ascii.toString('latin1');
}
