// `require('websift/testing')`: the testing helpers are ESM only (their conformance suites load vitest
// with a top-level await, which require() of ESM cannot run). Say so instead of Node's generic error.
throw new Error("websift/testing is ESM-only: import it (import { ManualClock } from 'websift/testing') from an ES module or a vitest test file");
