// Organizations, credits grants, API keys and usage: the admin side of the engine.

import { type FieldProblem, InvalidRequestError } from '../../errors.js';
import type { KeyEvents } from '../../ports/key-events.js';
import type { KeyStore } from '../../ports/key-store.js';
import type { Ledger } from '../../ports/ledger.js';
import type { Clock, OrganizationInfo, UsageResponse } from '../../types/index.js';
import { KeyCache, type KeyCacheOptions, keyDigest, lookupKey, newApiKey } from './api-keys.js';
import { unknownOrganization } from './credits.js';

const MAX_ID_LENGTH = 128;

/** Organization ids: 1–128 printable characters without surrounding spaces. */
export function organizationProblem(id: unknown): string | null {
  if (typeof id !== 'string') return 'must be a string';
  if (id.length === 0 || id.length > MAX_ID_LENGTH) return `must be 1–${MAX_ID_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/u.test(id) || id.trim() !== id) return 'must not contain control characters or surrounding spaces';
  return null;
}

function creditsProblem(credits: unknown): string | null {
  return Number.isSafeInteger(credits) && (credits as number) >= 0 ? null : 'must be a non-negative integer';
}

function check(problems: (FieldProblem | null)[]): void {
  const found = problems.filter((p): p is FieldProblem => p !== null);
  if (found.length > 0) throw new InvalidRequestError(found);
}

const problem = (field: string, message: string | null): FieldProblem | null => (message ? { field, message } : null);

export class Accounts {
  readonly #ledger: Ledger;
  readonly #keys: KeyStore;
  readonly #clock: Clock;
  /** Organizations seen to exist. They are never deleted, so a positive cache is always right. */
  readonly #known = new Set<string>();
  readonly #keyCache: KeyCache;
  readonly #events: KeyEvents | undefined;

  /** `keyCache.events`: revocations are announced there and heard from every instance. */
  constructor(ledger: Ledger, keys: KeyStore, clock: Clock, keyCache: KeyCacheOptions = {}) {
    this.#ledger = ledger;
    this.#keys = keys;
    this.#clock = clock;
    this.#keyCache = new KeyCache(clock, keyCache);
    this.#events = keyCache.events;
  }

  /** Stops listening to key events (the events port itself belongs to whoever made it). */
  close(): void {
    this.#keyCache.close();
  }

  /** Resolves when the organization exists; otherwise UnauthorizedError('unknown_organization'). */
  async require(id: unknown): Promise<void> {
    if (typeof id === 'string' && this.#known.has(id)) return;
    const org = typeof id === 'string' ? await this.#ledger.organization(id) : null;
    if (!org) throw unknownOrganization(String(id));
    this.#known.add(org.id);
  }

  async createOrganization(id: string, options: { credits?: number } = {}): Promise<void> {
    if (options === null || typeof options !== 'object') {
      throw new InvalidRequestError([{ field: 'options', message: 'must be an object such as { credits: 100 }' }]);
    }
    const credits = options.credits ?? 0;
    check([problem('id', organizationProblem(id)), problem('credits', creditsProblem(credits))]);
    if (!(await this.#ledger.createOrganization(id, credits, this.#clock.now()))) {
      throw new InvalidRequestError([{ field: 'id', message: `organization "${id}" already exists` }], 'organization_exists');
    }
  }

  async addCredits(id: string, credits: number): Promise<number> {
    check([problem('credits', creditsProblem(credits))]);
    const balance = await this.#ledger.addCredits(id, credits);
    if (balance === null) throw unknownOrganization(String(id));
    return balance;
  }

  listOrganizations(): Promise<OrganizationInfo[]> {
    return this.#ledger.listOrganizations();
  }

  async createApiKey(organization: string): Promise<string> {
    await this.require(organization);
    const key = newApiKey();
    await this.#keys.insert(keyDigest(key), organization, this.#clock.now());
    return key;
  }

  async revokeApiKey(key: string): Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0) return false;
    const digest = keyDigest(key);
    // Revocation is immediate in this process: the entry goes before the store is told, and lookups
    // still in flight then can't re-add it (see KeyCache.epoch); once more after, for good measure.
    this.#keyCache.delete(digest);
    let revoked: boolean;
    try {
      revoked = await this.#keys.revoke(digest, this.#clock.now());
    } finally {
      this.#keyCache.delete(digest);
    }
    // Announced even when already revoked, so that revoking again re-announces a lost announcement. A
    // failed announcement doesn't fail the revocation (it is stored): other instances then drop the key
    // when their cache entry expires (ttlMs), or at once if their feed is down too (it isn't trusted).
    await this.#events?.publishRevoked(digest).catch(() => {});
    return revoked;
  }

  authenticate(key: string): Promise<{ organization: string } | null> {
    return lookupKey(this.#keys, key, this.#keyCache);
  }

  async usage(organization: string): Promise<UsageResponse> {
    const counts = await this.#ledger.usage(organization);
    if (!counts) throw unknownOrganization(organization);
    const { search, extract } = counts.requests;
    return {
      organization,
      credits: { balance: counts.balance, used: counts.used },
      requests: { search, extract, total: search + extract, free: counts.free },
      timestamp: new Date(this.#clock.now()).toISOString(),
    };
  }
}
