// The search router (docs/router.md): sources asked best-first with health, breakers, hedging and
// retries; the search core sees only its outcomes.
export type { Router, SourceOutcome } from './route-types.js';
export type { BreakerOptions, RouterOptions, SourceAttemptEvent } from './router.js';
export { createRouter } from './router.js';
export type { SourceErrorReason } from './source-error.js';
export { isSourceError, SourceError } from './source-error.js';
export { ClockTimer } from './timer.js';
