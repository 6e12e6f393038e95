// A SearchSource that answers from a script, for offline tests of code built on websift.

import type { Clock, SearchQuery, SearchSource, SourceAnswer, SourceContext } from '../types/index.js';

/** What one call answers: an answer, a failure, or a hang (until the caller's signal aborts). */
export type ScriptedAnswer = SourceAnswer | { fail: string } | { hang: true };

export type Script = Record<string, ScriptedAnswer> | ((query: SearchQuery, call: number) => ScriptedAnswer);

/** Options of `scriptedSource`. */
export interface ScriptedSourceOptions {
  /** Mark the source's empty answers as unreliable (as DuckDuckGo's), for confirmation tests. */
  unreliableEmpties?: boolean;
  /** Answer used when a record script has no entry for the query; default: no results, with a notice. */
  fallback?: ScriptedAnswer;
  /** Simulated latency, slept on `clock` (required with latency). */
  latencyMs?: number | ((query: SearchQuery, call: number) => number);
  /** The clock latency is slept on (a `ManualClock` in tests); required with `latencyMs`. */
  clock?: Clock;
}

export interface ScriptedSource extends SearchSource {
  /** Every query received, in order. */
  readonly calls: SearchQuery[];
}

/**
 * A `SearchSource` that answers from a script, for offline tests: a record from query text to answer
 * (`{ results, noResultsNotice? }`, `{ fail: 'message' }` to throw, `{ hang: true }` to wait for the abort),
 * or a function of the query and the call number. `calls` records every query received.
 * @example
 * ```ts
 * const source = scriptedSource('primary', { cats: { results: [{ title: 'Cats', url: 'https://cats.test/', snippet: '' }] } });
 * const engine = createEngine({ sources: [source] });
 * ```
 */
export function scriptedSource(id: string, script: Script, options: ScriptedSourceOptions = {}): ScriptedSource {
  const calls: SearchQuery[] = [];
  const fallback: ScriptedAnswer = options.fallback ?? { results: [], noResultsNotice: true };
  const pick = (query: SearchQuery, call: number): ScriptedAnswer =>
    typeof script === 'function' ? script(query, call) : (script[query.q] ?? fallback);

  return {
    id,
    calls,
    ...(options.unreliableEmpties === undefined ? {} : { unreliableEmpties: options.unreliableEmpties }),
    async search(query: SearchQuery, ctx: SourceContext): Promise<SourceAnswer> {
      const call = calls.length;
      calls.push(query);
      const latency = typeof options.latencyMs === 'function' ? options.latencyMs(query, call) : (options.latencyMs ?? 0);
      if (latency > 0) {
        if (!options.clock) throw new Error('scriptedSource: latencyMs needs a clock');
        await options.clock.sleep(latency, ctx.signal);
      }
      const answer = pick(query, call);
      if ('fail' in answer) throw new Error(answer.fail);
      if ('hang' in answer) {
        return new Promise((_, reject) => {
          if (ctx.signal.aborted) reject(ctx.signal.reason);
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
        });
      }
      return { results: answer.results.map((r) => ({ ...r })), ...(answer.noResultsNotice ? { noResultsNotice: true } : {}) };
    },
  };
}
