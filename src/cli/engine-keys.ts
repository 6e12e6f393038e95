// Which createEngine options the config's "engine" object may set. The table is typed as a Record over
// every key of EngineOptions, so a new engine option fails the typecheck here until the CLI decides
// about it: no second, hand-kept list that can fall behind.

import type { EngineOptions } from '../engine/index.js';

/** config: plain JSON, passed through; flag: set by a CLI flag or the config's own field; code: objects or functions, for embedders only. */
type Where = 'config' | { flag: string } | 'code';

const ENGINE_KEYS: Record<keyof EngineOptions, Where> = {
  database: { flag: 'set with --database or $WEBSIFT_DATABASE_URL' },
  sources: { flag: 'use the top-level "sources"' },
  redis: 'config', // --redis / $WEBSIFT_REDIS_URL win over it
  postgres: 'config',
  redisPrefix: 'config',
  durability: 'config',
  lockWaitMs: 'config',
  maxStoredAnswerBytes: 'config',
  rateLimit: 'config',
  resultsPerSearch: 'config',
  router: 'config',
  allowPrivateNetwork: 'config',
  allowEndpoints: 'config',
  chromiumPath: 'config',
  userAgent: 'config',
  robots: 'config',
  pageTimeoutMs: 'config',
  conversionThreads: 'config',
  conversionMemoryMb: 'config',
  conversionBacklog: 'config',
  extractDeadlineMs: 'config',
  contentDeadlineMs: 'config',
  extractConcurrency: 'config',
  pageCacheBytes: 'config',
  stealthRemovalDate: 'config',
  clock: 'code',
  rateLimiter: 'code',
  ledger: 'code',
  keyStore: 'code',
  keyEvents: 'code',
  caches: 'code',
  flights: 'code',
  contentFetcher: 'code',
  fetcher: 'code',
  renderer: 'code',
};

/** The keys the config's "engine" object accepts. */
export const CONFIG_ENGINE_KEYS: readonly string[] = Object.keys(ENGINE_KEYS).filter((k) => ENGINE_KEYS[k as keyof EngineOptions] === 'config');

/** Why an engine option that exists is still refused in the config. */
export const ENGINE_KEY_HINTS: Record<string, string> = Object.fromEntries(
  Object.entries(ENGINE_KEYS).flatMap(([key, where]): [string, string][] => {
    if (where === 'config') return [];
    return [[key, where === 'code' ? 'an object or function: only through createEngine in code' : where.flag]];
  }),
);
