// The engine: createEngine and its options, wiring the core's rules to the storage adapters and the
// extraction pipeline (fetcher, renderer, conversion workers) that the options choose.
export { createEngine } from './create-engine.js';
export type { EngineOptions } from './options.js';
