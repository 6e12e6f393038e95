// Which createEngine options the config's "engine" object may set. The table is typed as a Record over
// every key of EngineOptions, so a new engine option fails the typecheck here until the CLI decides
// about it: no second, hand-kept list that can fall behind. Each key the config may set names the JSON
// shape of its value, checked when the config is read (exit 2 naming the key); the engine checks the
// finer rules (ranges, formats) when it starts, and the CLI reports those naming the key too.

import type { EngineOptions } from '../engine/index.js';

/** The JSON shape of a value the config may set (see SHAPES). */
type Shape = keyof typeof SHAPES;

/** A shape: plain JSON, checked and passed through; flag: set by a CLI flag or the config's own field; code: objects or functions, for embedders only. */
type Where = Shape | { flag: string } | 'code';

const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Each shape: its test, and what the error says the value must be. */
const SHAPES = {
  boolean: { test: (v: unknown) => typeof v === 'boolean', must: 'true or false' },
  string: { test: (v: unknown) => typeof v === 'string' && v !== '', must: 'a non-empty string' },
  object: { test: isObject, must: 'an object' },
  strings: { test: (v: unknown) => Array.isArray(v) && v.every((e) => typeof e === 'string'), must: 'an array of strings' },
  count: { test: (v: unknown) => Number.isInteger(v) && (v as number) >= 1, must: 'an integer of at least 1' },
  positive: { test: (v: unknown) => isNumber(v) && v > 0, must: 'a number above 0' },
  nonNegative: { test: (v: unknown) => isNumber(v) && v >= 0, must: 'a number of at least 0' },
  date: { test: (v: unknown) => typeof v === 'string' || isNumber(v), must: 'an ISO date string or epoch milliseconds' },
  rateLimit: { test: (v: unknown) => v === false || isObject(v), must: 'false or {"limit": N, "window": SECONDS}' },
} as const;

const ENGINE_KEYS: Record<keyof EngineOptions, Where> = {
  database: { flag: 'set with --database or $WEBSIFT_DATABASE_URL' },
  sources: { flag: 'use the top-level "sources"' },
  redis: 'string', // --redis / $WEBSIFT_REDIS_URL win over it
  postgres: 'object',
  redisPrefix: 'string',
  durability: 'string',
  lockWaitMs: 'nonNegative',
  maxStoredAnswerBytes: 'nonNegative',
  rateLimit: 'rateLimit',
  resultsPerSearch: 'count',
  router: 'object',
  allowPrivateNetwork: 'boolean',
  allowEndpoints: 'strings',
  chromiumPath: 'string',
  userAgent: 'string',
  robots: 'boolean',
  pageTimeoutMs: 'positive',
  conversionThreads: 'count',
  conversionMemoryMb: 'positive',
  conversionBacklog: 'count',
  extractDeadlineMs: 'positive',
  contentDeadlineMs: 'positive',
  extractConcurrency: 'count',
  pageCacheBytes: 'nonNegative',
  stealthRemovalDate: 'date',
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

const shapeOf = (key: string): Shape | undefined => {
  const where = Object.hasOwn(ENGINE_KEYS, key) ? ENGINE_KEYS[key as keyof EngineOptions] : undefined;
  return typeof where === 'string' && where !== 'code' ? where : undefined;
};

/** The keys the config's "engine" object accepts. */
export const CONFIG_ENGINE_KEYS: readonly string[] = Object.keys(ENGINE_KEYS).filter((k) => shapeOf(k) !== undefined);

/** What is wrong with the value of an accepted engine key (`must be …, got …`), or undefined when its shape fits. */
export function engineValueError(key: string, value: unknown): string | undefined {
  const shape = shapeOf(key);
  if (shape === undefined || SHAPES[shape].test(value)) return undefined;
  return `must be ${SHAPES[shape].must}, got ${JSON.stringify(value)}`;
}

/** Why an engine option that exists is still refused in the config. */
export const ENGINE_KEY_HINTS: Record<string, string> = Object.fromEntries(
  Object.entries(ENGINE_KEYS).flatMap(([key, where]): [string, string][] => {
    if (typeof where === 'string' && where !== 'code') return [];
    return [[key, where === 'code' ? 'an object or function: only through createEngine in code' : where.flag]];
  }),
);
