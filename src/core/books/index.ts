// The books: credits (reserve, then settle), the price rules, free-repeat windows, organizations,
// API keys and idempotency. Every charge the engine makes goes through here.
export { Accounts } from './accounts.js';
export { keyDigest, lookupKey, newApiKey } from './api-keys.js';
export { CONFIRMED_EMPTY_TTL_MS, extractUrlPrice, REPEAT_WINDOW_MS, searchPrice, searchReserve } from './billing.js';
export type { Hold, HoldOptions } from './credits.js';
export { Credits } from './credits.js';
export { IDEMPOTENCY_KEY_FIELD, isIdempotentReplay, runIdempotent } from './idempotency.js';
export type { RepeatEntry } from './repeat-window.js';
export { RepeatWindows, repeatWindowPartition } from './repeat-window.js';
