// The KeyEvents port: tells every instance that an API key was revoked, so that each one's cache of
// recently authenticated keys (src/core/books/api-keys.ts) drops it at once instead of after its TTL.

export interface KeyEvents {
  /** Announces the revocation of the key with this SHA-256 digest to every subscribed instance. */
  publishRevoked(digest: string): Promise<void>;
  /**
   * Calls `onRevoked` for every revocation announced by any instance (this one's included). Calls
   * `onReset` when announcements may have been missed (the feed was down): drop every cached key.
   * Returns the unsubscribe function.
   */
  subscribe(onRevoked: (digest: string) => void, onReset: () => void): () => void;
  /** False while announcements can't be received: the caller must not trust its cache meanwhile. */
  readonly live: boolean;
  close?(): Promise<void>;
}
