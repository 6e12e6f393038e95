// One call to one source: its own AbortController (linked to the lane's signal, aborted by the
// per-attempt timeout on the Clock), a check of the answer's shape, and a verdict. The call is raced
// against its signal, so a source that ignores the signal cannot hold the search up, and an answer that
// arrives after the abort counts as a failure (contract §2).

import type { Clock, SearchQuery, SearchSource, SourceAnswer } from '../types.js';
import { SourceError, SourceTimeoutError } from './source-error.js';

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
  /** The lane's signal: aborting it cancels the attempt. */
  signal: AbortSignal;
}

export async function runAttempt(input: AttemptInput): Promise<AttemptVerdict> {
  const { source, clock, signal } = input;
  const started = clock.now();
  const elapsed = () => Math.max(0, clock.now() - started);
  if (signal.aborted) return { kind: 'cancelled', error: signal.reason, latencyMs: 0 };

  const call = new AbortController();
  const onLaneAbort = () => call.abort(signal.reason);
  signal.addEventListener('abort', onLaneAbort, { once: true });
  const timer = new AbortController();
  let timedOut = false;
  clock.sleep(input.timeoutMs, timer.signal).then(
    () => {
      timedOut = true;
      call.abort(new SourceTimeoutError(source.id, input.timeoutMs));
    },
    () => {}, // the timer was cleared
  );
  const aborted = new Promise<never>((_, reject) => {
    call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true });
  });

  let pending: Promise<SourceAnswer>;
  try {
    pending = Promise.resolve(source.search(input.query, { signal: call.signal, limit: input.limit }));
  } catch (error) {
    pending = Promise.reject(error); // a synchronous throw is a failure like any other
  }
  pending.catch(() => {}); // a late rejection after we moved on must not be unhandled
  aborted.catch(() => {});

  try {
    const answer = await Promise.race([pending, aborted]);
    if (call.signal.aborted) throw call.signal.reason; // answered, but after the abort
    checkAnswer(source.id, answer);
    return { kind: 'answer', answer, latencyMs: elapsed() };
  } catch (error) {
    if (timedOut) return { kind: 'failed', error: call.signal.reason, latencyMs: elapsed(), timedOut: true };
    if (signal.aborted) return { kind: 'cancelled', error: signal.reason, latencyMs: elapsed() };
    return { kind: 'failed', error, latencyMs: elapsed(), timedOut: false };
  } finally {
    timer.abort();
    signal.removeEventListener('abort', onLaneAbort);
  }
}

/** A malformed answer is the source's failure (reason bad_response), not a crash further down. */
function checkAnswer(id: string, answer: unknown): asserts answer is SourceAnswer {
  const bad = (why: string) => new SourceError(`Source "${id}" returned a malformed answer: ${why}`, { reason: 'bad_response' });
  if (!answer || typeof answer !== 'object') throw bad('not an object');
  const { results } = answer as { results?: unknown };
  if (!Array.isArray(results)) throw bad('results is not an array');
  results.forEach((r: unknown, i) => {
    const item = r as Record<string, unknown> | null;
    if (!item || typeof item !== 'object') throw bad(`results[${i}] is not an object`);
    for (const field of ['title', 'url', 'snippet'] as const) {
      if (typeof item[field] !== 'string') throw bad(`results[${i}].${field} is not a string`);
    }
  });
}
