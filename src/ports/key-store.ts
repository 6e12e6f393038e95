// The KeyStore port: API keys, stored only as SHA-256 digests (hex). Hashing, generation and the
// constant-time comparison live in the core (src/core/books/api-keys.ts); a store only keeps rows.

export interface StoredKey {
  /** SHA-256 hex digest of the plaintext key. */
  hash: string;
  organization: string;
  revoked: boolean;
}

export interface KeyStore {
  insert(hash: string, organization: string, now: number): Promise<void>;
  find(hash: string): Promise<StoredKey | null>;
  /** Resolves true when a live key was revoked. */
  revoke(hash: string, now: number): Promise<boolean>;
}
