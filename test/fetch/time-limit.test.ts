// A page's time limit holds across garbage collection. On Node 20, AbortSignal.any([caller,
// AbortSignal.timeout(ms)]) built in a helper and returned loses its timeout once the timeout signal
// is collected (nothing else holds it): a page converting past its limit then ran on to the request
// deadline. timeLimit keeps the timer itself; the loader, the renderer and the page limit use it.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeLimit } from '../../src/signals.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { failure, localLoader } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects garbage a few times while `promise` is pending (the window in which the timer got lost). */
async function collectingWhile<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  const settled = promise.finally(() => (done = true));
  while (!done) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  return settled;
}

let server: PageServer;
beforeAll(async () => {
  server = await startPageServer({
    '/stall': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>one byte, then nothing');
    },
  });
});
afterAll(() => server.close());

describe('time limits survive garbage collection', () => {
  it('timeLimit aborts with a TimeoutError after its time, with a caller signal beside it', async () => {
    const caller = new AbortController();
    const limit = timeLimit(100, caller.signal);
    const aborted = new Promise<unknown>((resolve) => limit.signal.addEventListener('abort', () => resolve(limit.signal.reason)));
    const reason = await collectingWhile(aborted);
    expect((reason as Error).name).toBe('TimeoutError');
  });

  it('timeLimit follows the caller and stops its timer when cleared', () => {
    const caller = new AbortController();
    const limit = timeLimit(60_000, caller.signal);
    caller.abort(new Error('caller'));
    expect((limit.signal.reason as Error).message).toBe('caller');
    const other = timeLimit(1, undefined);
    other.clear();
    expect(other.signal.aborted).toBe(false);
  });

  it('the page loader times out a stalled page under GC pressure', async () => {
    const { loader, fetcher } = localLoader({ timeoutMs: 300 });
    const caller = new AbortController(); // held by the test, never aborted
    const result = await collectingWhile(failure(loader.load(server.url('/stall'), { signal: caller.signal })));
    expect(result.type).toBe('timeout');
    await fetcher.close?.();
  });
});
