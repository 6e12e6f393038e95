// One call to one source: a check of the answer's shape and a verdict. The call gets the lane's signal
// (a timeout ends the lane: timed-out sources are not retried), is timed out on the Clock, and is raced
// against that signal, so a source that ignores the signal cannot hold the search up, and an answer that
// arrives after the abort counts as a failure (contract §2).
//
// Fast path: a source that has answered by the next microtask (an in-process index, a cache, a scripted
// source) needs no timer and no abort listener; the timeout and the route deadline are armed only when
// the call is still pending then. Either way the timeout fires `timeoutMs` after the call started. The
// lane's AbortSignal itself is made only if the source reads `ctx.signal` or the call is pending (lane-abort.ts).

import type { Clock, SearchQuery, SearchSource, SourceAnswer } from '../../types/index.js';
import type { LaneAbort } from './lane-abort.js';
import { SourceError, SourceTimeoutError } from './source-error.js';
import { ClockTimer } from './timer.js';

export type AttemptVerdict =
  | { kind: 'answer'; answer: SourceAnswer; latencyMs: number; endedAt: number }
  | { kind: 'failed'; error: unknown; latencyMs: number; endedAt: number; timedOut: boolean }
  /** The lane's signal aborted (hedge lost, deadline, caller): not the source's fault. */
  | { kind: 'cancelled'; error: unknown; latencyMs: number; endedAt: number };

export interface AttemptInput {
  source: SearchSource;
  query: SearchQuery;
  limit: number;
  clock: Clock;
  timeoutMs: number;
  /** The lane's cancellation: its signal is the source's `ctx.signal`; the timeout aborts it. */
  cancel: LaneAbort;
  /** Clock time the call goes out (read by the lane, which has just read the clock). */
  started: number;
  /** Called when the call did not answer at once, before waiting: the route's deadline must run. */
  onWait: () => void;
}

const noop = () => {};

export async function runAttempt(input: AttemptInput): Promise<AttemptVerdict> {
  const { source, clock, cancel, started } = input;
  if (cancel.aborted) return { kind: 'cancelled', error: cancel.reason, latencyMs: 0, endedAt: started };

  let pending: Promise<SourceAnswer>;
  try {
    pending = Promise.resolve(source.search(input.query, cancel.sourceContext(input.limit)));
  } catch (error) {
    pending = Promise.reject(error); // a synchronous throw is a failure like any other
  }
  let settled = false;
  const onSettled = () => {
    settled = true;
  };
  pending.then(onSettled, onSettled); // also keeps a late rejection after we moved on from being unhandled
  await undefined; // an already-settled call's reaction runs first

  let timedOut = false;
  let timer: ClockTimer | undefined;
  let signal: AbortSignal | undefined;
  let onAbort: (() => void) | undefined;
  try {
    let answer: SourceAnswer;
    if (settled) {
      answer = await pending;
    } else {
      if (cancel.aborted) throw cancel.reason; // aborted meanwhile: a listener added now would never fire
      input.onWait();
      timer = new ClockTimer(clock, started + input.timeoutMs, () => {
        if (cancel.aborted) return; // cancelled first: not a timeout
        timedOut = true;
        cancel.abort(new SourceTimeoutError(source.id, input.timeoutMs));
      });
      timer.arm();
      const laneSignal = cancel.signal;
      signal = laneSignal;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(laneSignal.reason);
        laneSignal.addEventListener('abort', onAbort, { once: true });
      });
      aborted.catch(noop);
      answer = await Promise.race([pending, aborted]);
    }
    if (cancel.aborted) throw cancel.reason; // answered, but after the abort
    checkAnswer(source.id, answer);
    const endedAt = clock.now();
    return { kind: 'answer', answer, latencyMs: Math.max(0, endedAt - started), endedAt };
  } catch (error) {
    const endedAt = clock.now();
    const latencyMs = Math.max(0, endedAt - started);
    if (timedOut) return { kind: 'failed', error: cancel.reason, latencyMs, endedAt, timedOut: true };
    if (cancel.aborted) return { kind: 'cancelled', error: cancel.reason, latencyMs, endedAt };
    return { kind: 'failed', error, latencyMs, endedAt, timedOut: false };
  } finally {
    timer?.clear();
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** A malformed answer is the source's failure (reason bad_response), not a crash further down. */
function checkAnswer(id: string, answer: unknown): asserts answer is SourceAnswer {
  const bad = (why: string) => new SourceError(`Source "${id}" returned a malformed answer: ${why}`, { reason: 'bad_response' });
  if (!answer || typeof answer !== 'object') throw bad('not an object');
  const { results } = answer as { results?: unknown };
  if (!Array.isArray(results)) throw bad('results is not an array');
  for (let i = 0; i < results.length; i++) {
    const item = results[i] as Record<string, unknown> | null;
    if (!item || typeof item !== 'object') throw bad(`results[${i}] is not an object`);
    if (typeof item.title !== 'string') throw bad(`results[${i}].title is not a string`);
    if (typeof item.url !== 'string') throw bad(`results[${i}].url is not a string`);
    if (typeof item.snippet !== 'string') throw bad(`results[${i}].snippet is not a string`);
  }
}
