// The KeyStore conformance suite: every key store (SQLite, yours) must pass it. Keys are made and
// looked up the way the engine does it (src/core/books/api-keys.ts: `ws_live_` keys, SHA-256 digests,
// constant-time compare), so "create → authenticate → revoke" is tested end to end over the store.

import { randomBytes } from 'node:crypto';
import { keyDigest, lookupKey, newApiKey } from '../../core/books/index.js';
import type { KeyStore } from '../../ports/key-store.js';
import { type ConformanceOptions, suiteKit } from './suite-kit.js';
import { vitestApi } from './vitest-api.js';

/** The organizations the suite files keys under; a store that checks them must know them. */
export const KEY_STORE_ORGANIZATIONS = ['acme', 'globex'] as const;

export interface KeyStoreHandle {
  /** A fresh store where `organizations` exist (for stores that check a key's organization). */
  store: KeyStore;
  /** A store on the same storage, as a restarted process would open it (the handle closes the old one). */
  reopen?: () => Promise<KeyStore>;
  /** Everything the store persisted, as text (rows, file bytes…): the suite checks no plaintext key is in it. */
  dump?: () => Promise<string>;
  cleanup(): Promise<void>;
}

const NOW = Date.UTC(2026, 0, 1);

/**
 * Registers vitest tests that a `KeyStore` adapter must pass (exact digests, revoke once, no rebinding,
 * persistence across `reopen`, no plaintext key in `dump`; docs/ports.md). Call it at the top level of a
 * test file run by `vitest run`. `knownGaps` lists test titles expected to fail.
 * @throws {Error} when called outside a vitest worker.
 */
export function describeKeyStoreConformance(
  name: string,
  makeStore: (organizations: readonly string[]) => Promise<KeyStoreHandle>,
  options: ConformanceOptions = {},
): void {
  const { describe, beforeEach, afterEach, expect } = vitestApi();
  describe(`KeyStore conformance: ${name}`, () => {
    let handle: KeyStoreHandle | undefined;
    let store: KeyStore;
    beforeEach(async () => {
      handle = await makeStore(KEY_STORE_ORGANIZATIONS);
      store = handle.store;
    });
    afterEach(async () => {
      await handle?.cleanup();
      handle = undefined;
    });
    const create = async (organization: string) => {
      const key = newApiKey();
      await store.insert(keyDigest(key), organization, NOW);
      return key;
    };
    const kit = suiteKit(options);

    kit.test('a created key looks up to its organization', async () => {
      const key = await create('acme');
      expect(await lookupKey(store, key)).toEqual({ organization: 'acme' });
      expect(await store.find(keyDigest(key))).toEqual({ hash: keyDigest(key), organization: 'acme', revoked: false });
    });

    kit.test('keys are independent: several per organization, several organizations', async () => {
      const keys = await Promise.all(['acme', 'acme', 'acme', 'globex', 'globex'].map(async (org) => ({ org, key: await create(org) })));
      for (const { org, key } of keys) expect(await lookupKey(store, key)).toEqual({ organization: org });
    });

    kit.test('a revoked key looks up as null; a second revoke resolves false; other keys stay live', async () => {
      const [a, b] = [await create('acme'), await create('acme')];
      expect(await store.revoke(keyDigest(a), NOW + 1)).toBe(true);
      expect(await lookupKey(store, a)).toBeNull();
      expect(await store.find(keyDigest(a))).toEqual({ hash: keyDigest(a), organization: 'acme', revoked: true });
      expect(await store.revoke(keyDigest(a), NOW + 2)).toBe(false);
      expect(await lookupKey(store, b)).toEqual({ organization: 'acme' });
    });

    kit.test('unknown keys look up as null and cannot be revoked', async () => {
      await create('acme');
      const stranger = newApiKey();
      expect(await lookupKey(store, stranger)).toBeNull();
      expect(await store.find(keyDigest(stranger))).toBeNull();
      expect(await store.revoke(keyDigest(stranger), NOW)).toBe(false);
      expect(await store.find(keyDigest(stranger))).toBeNull(); // a revoke of nothing creates nothing
    });

    kit.test('find matches the whole digest exactly', async () => {
      const digest = keyDigest(await create('acme'));
      for (const near of [digest.toUpperCase(), digest.slice(0, -1), `${digest}0`, digest.slice(0, 32), '']) {
        expect(await store.find(near)).toBeNull();
      }
    });

    kit.test('a stored digest is never rebound to another organization, nor revived once revoked', async () => {
      const digest = keyDigest(await create('acme'));
      await store.insert(digest, 'globex', NOW).catch(() => undefined); // may refuse
      expect(await store.find(digest)).toMatchObject({ organization: 'acme', revoked: false });
      await store.revoke(digest, NOW);
      await store.insert(digest, 'acme', NOW).catch(() => undefined); // may refuse
      expect(await store.find(digest)).toMatchObject({ organization: 'acme', revoked: true });
    });

    kit.test('only digests are stored, never a plaintext key', async (t) => {
      if (!handle?.dump) return t.skip('the adapter provides no dump()');
      const keys = [await create('acme'), await create('globex')];
      await store.revoke(keyDigest(keys[0]!), NOW);
      const dumped = await handle.dump();
      for (const key of keys) {
        expect(dumped).toContain(keyDigest(key));
        expect(dumped).not.toContain(key);
        expect(dumped).not.toContain(key.slice(-24)); // nor its secret part alone
        expect(dumped).not.toContain(Buffer.from(key.slice(8), 'base64url').toString('hex'));
      }
    });

    kit.test('keys and revocations survive a restart', async (t) => {
      if (!handle?.reopen) return t.skip('the adapter provides no reopen()');
      const [live, revoked] = [await create('acme'), await create('globex')];
      await store.revoke(keyDigest(revoked), NOW);
      store = await handle.reopen();
      expect(await lookupKey(store, live)).toEqual({ organization: 'acme' });
      expect(await lookupKey(store, revoked)).toBeNull();
      expect(await store.find(keyDigest(revoked))).toMatchObject({ revoked: true });
    });

    kit.test('many keys created in parallel all look up', async () => {
      const keys = await Promise.all(Array.from({ length: 200 }, (_, i) => create(KEY_STORE_ORGANIZATIONS[i % 2]!)));
      const found = await Promise.all(keys.map((key) => lookupKey(store, key)));
      found.forEach((row, i) => expect(row).toEqual({ organization: KEY_STORE_ORGANIZATIONS[i % 2] }));
      expect(await lookupKey(store, randomBytes(24).toString('base64url'))).toBeNull();
    });

    kit.finish();
  });
}
