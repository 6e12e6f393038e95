// Conformance suites for the storage ports (docs/ports.md): call one from a vitest test file with a
// factory for your adapter; every adapter of a port must pass its suite.

export type { CacheStoreConformanceOptions, CacheStoreHandle, SampleValue } from './cache-store.js';
export { describeCacheStoreConformance, sampleValue } from './cache-store.js';
export type { KeyStoreHandle } from './key-store.js';
export { describeKeyStoreConformance, KEY_STORE_ORGANIZATIONS } from './key-store.js';
export type { LedgerHandle, LedgerSubject } from './ledger.js';
export { describeLedgerConformance } from './ledger.js';
export type { RateLimiterHandle } from './rate-limiter.js';
export { describeRateLimiterConformance } from './rate-limiter.js';
export type { ConformanceOptions } from './suite-kit.js';
