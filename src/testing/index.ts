// websift/testing: helpers for offline tests.

export * from './conformance/index.js';
export { ManualClock } from './manual-clock.js';
export { type PageResponse, type PageRoute, type PageServer, type RecordedRequest, startPageServer } from './page-server.js';
export type { Script, ScriptedAnswer, ScriptedSource, ScriptedSourceOptions } from './scripted-source.js';
export { scriptedSource } from './scripted-source.js';
export { seededRandom } from './seeded-random.js';
