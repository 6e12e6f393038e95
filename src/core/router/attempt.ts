// One call to one source: a check of the answer's shape and a verdict. The call gets the lane's signal
// (a timeout ends the lane: timed-out sources are not retried), is timed out on the Clock, and is raced
// against that signal, so a source that ignores the signal cannot hold the search up, and an answer that
// arrives after the abort counts as a failure (contract §2).
//
// Fast path: a source that has answered by the next microtask (an in-process index, a cache, a scripted
// source) needs no timer and no abort listener; the timeout and the route deadline are armed only when
// the call is still pending then. Either way the timeout fires `timeoutMs` after the call started.

import type { Clock, SearchQuery, SearchSource, SourceAnswer } from '../../types/index.js';
import { SourceError, SourceTimeoutError } from './source-error.js';
import { ClockTimer } from './timer.js';

export type AttemptVerdict =
  | { kind: 'answer'; answer: SourceAnswer; latencyMs: number }
  | { kind: 'failed'; error: unknown; latencyMs: number; timedOut: boolean }
  /** The lane's signal aborted (hedge lost, deadline, caller): not the source's fault. */
  | { kind: 'cancelled'; error: unknown; latencyMs: number };

export interface AttemptInput {
  source: SearchSource;
  query: SearchQuery;
  limit: number;
  clock: Clock;
  timeoutMs: number;
  /** The lane's controller: its signal is the source's `ctx.signal`; the timeout aborts it. */
  controller: AbortController;
  /** The lane's signal (`controller.signal`, read once: the getter is not free). */
  signal: AbortSignal;
  /** Called when the call did not answer at once, before waiting: the route's deadline must run. */
  onWait: () => void;
}

const noop = () => {};

export async function runAttempt(input: AttemptInput): Promise<AttemptVerdict> {
  const { source, clock, signal } = input;
  const started = clock.now();
  const elapsed = () => Math.max(0, clock.now() - started);
  if (signal.aborted) return { kind: 'cancelled', error: signal.reason, latencyMs: 0 };

  let pending: Promise<SourceAnswer>;
  try {
    pending = Promise.resolve(source.search(input.query, { signal, limit: input.limit }));
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
  let onAbort: (() => void) | undefined;
  try {
    let answer: SourceAnswer;
    if (settled) {
      answer = await pending;
    } else {
      if (signal.aborted) throw signal.reason; // aborted meanwhile: a listener added now would never fire
      input.onWait();
      timer = new ClockTimer(clock, started + input.timeoutMs, () => {
        if (signal.aborted) return; // cancelled first: not a timeout
        timedOut = true;
        input.controller.abort(new SourceTimeoutError(source.id, input.timeoutMs));
      });
      timer.arm();
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      });
      aborted.catch(noop);
      answer = await Promise.race([pending, aborted]);
    }
    if (signal.aborted) throw signal.reason; // answered, but after the abort
    checkAnswer(source.id, answer);
    return { kind: 'answer', answer, latencyMs: elapsed() };
  } catch (error) {
    if (timedOut) return { kind: 'failed', error: signal.reason, latencyMs: elapsed(), timedOut: true };
    if (signal.aborted) return { kind: 'cancelled', error: signal.reason, latencyMs: elapsed() };
    return { kind: 'failed', error, latencyMs: elapsed(), timedOut: false };
  } finally {
    timer?.clear();
    if (onAbort) signal.removeEventListener('abort', onAbort);
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
