// X-Request-Id: the caller's when it is sane (1–128 characters a log line and a header can carry as
// they are), else a new UUID. Every reply carries it; error bodies name it (`request_id`).

import { randomFillSync } from 'node:crypto';

const SANE = /^[A-Za-z0-9._~:/+=@-]{1,128}$/;

export function requestIdOf(header: string | null): string {
  return header !== null && SANE.test(header) ? header : newRequestId();
}

/** UUIDs made per refill of the random pool (node's randomUUID buffers 128). */
const POOL_IDS = 256;
const pool = new Uint8Array(16 * POOL_IDS);
/** The next unused 16 bytes of `pool`, as an index of ids; POOL_IDS: to refill. */
let next = POOL_IDS;
/** One id's text as ASCII bytes, decoded as latin1 into a flat string. */
const text = Buffer.alloc(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/**
 * A random (version 4) UUID, as `crypto.randomUUID()` makes it (16 bytes of `randomFillSync` entropy,
 * lower-case hex), written as bytes and decoded once into a flat string. randomUUID joins 21 pieces
 * into a string tree that node:http then flattens to check the header's characters, and again to
 * write the head: ~0.2 µs a reply more.
 */
export function newRequestId(): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const at = 16 * next++;
  let to = 0;
  for (let i = 0; i < 16; i++) {
    // Dashes before bytes 4, 6, 8 and 10: 8-4-4-4-12 hex digits.
    if (i === 4 || i === 6 || i === 8 || i === 10) text[to++] = 0x2d;
    let byte = pool[at + i]!;
    // Version 4 in byte 6, the RFC 9562 variant (10xx) in byte 8.
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    text[to++] = HEX[byte >> 4]!;
    text[to++] = HEX[byte & 0x0f]!;
  }
  return text.toString('latin1', 0, 36);
}
