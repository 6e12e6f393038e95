// websift/testing: helpers for offline tests.
export { ManualClock } from './manual-clock.js';
export { scriptedSource } from './scripted-source.js';
export type { ScriptedAnswer, Script, ScriptedSource, ScriptedSourceOptions } from './scripted-source.js';
export { startPageServer, type PageServer, type PageRoute, type PageResponse, type RecordedRequest } from './page-server.js';
export * from './conformance/index.js';
export { seededRandom } from './seeded-random.js';
