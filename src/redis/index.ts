// websift/redis: shared state for many instances on one Redis (docs/redis.md). ioredis is an
// optional peer dependency, imported the first time an adapter talks to Redis.

export type { RedisCacheStoreOptions } from '../adapters/redis/cache-store.js';
export { redisCacheStore } from '../adapters/redis/cache-store.js';
export type { RedisClientLike, RedisConnectionOptions } from '../adapters/redis/client.js';
export type { RedisFlightsOptions } from '../adapters/redis/flights.js';
export { redisFlights } from '../adapters/redis/flights.js';
export type { RedisKeyEvents } from '../adapters/redis/key-events.js';
export { redisKeyEvents } from '../adapters/redis/key-events.js';
export type { RedisRateLimiterOptions } from '../adapters/redis/rate-limiter.js';
export { redisRateLimiter } from '../adapters/redis/rate-limiter.js';
