'use strict';
// The conversion pool's worker entry. piscina require()s its entry; on Node 20 a require() of an ES
// module aborts the whole host process (V8 "IsGraphAsync … must be used on an instantiated module") when
// the worker is terminated while that module loads, e.g. an engine closed right after its first page.
// So the entry is CommonJS and loads the converter with import(), whose failure stays in the worker.
// Loading starts at once, so a warm worker has the converter ready before its first page.
const { workerData } = require('node:worker_threads');

// Run from the TypeScript source (a bench or script under tsx, without a bundle), the worker registers
// tsx itself: on Node 20 a worker's `execArgv: ['--import', 'tsx']` does not reach its module loader.
const converter = workerData?.websiftTsx
  ? import('tsx/esm/api').then((tsx) => {
      tsx.register();
      return import(workerData.websiftConversionWorker);
    })
  : import(workerData?.websiftConversionWorker);
converter.catch(() => {}); // reported by the first task that awaits it

// The tasks the pool runs (conversion-pool.ts names them); test/conversion checks this list.
module.exports = async (task) => (await converter).default(task);
module.exports.part = async (task) => (await converter).part(task);
