// API keys: `ws_live_` + 192 random bits (base64url). Only the SHA-256 digest is stored; a lookup is
// by digest, then the digests are compared in constant time. Keys carry ≥128 random bits, so a
// fast hash is enough (no password stretching needed).

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyStore } from '../ports/key-store.js';

export const KEY_PREFIX = 'ws_live_';
/** Anything longer can't be one of our keys; refuse before hashing. */
const MAX_KEY_LENGTH = 256;

export function newApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function keyDigest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The organization of a live key, or null (unknown, revoked, malformed). */
export async function lookupKey(store: KeyStore, key: unknown): Promise<{ organization: string } | null> {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return null;
  const digest = keyDigest(key);
  const row = await store.find(digest);
  if (!row || row.revoked) return null;
  const a = Buffer.from(row.hash, 'hex');
  const b = Buffer.from(digest, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? { organization: row.organization } : null;
}
