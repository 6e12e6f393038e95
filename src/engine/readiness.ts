// Readiness: whether the services an engine's calls need answer now (its books' database, and Redis when
// configured). One place for the rule the HTTP bindings' /readyz and `websift serve`'s start check use.
// Each check is live, bounded by a short real-time timeout (a network bound, not a Clock rule), run by
// one caller at a time and its result kept briefly (on the engine's Clock) so a busy probe costs little.

import type { Clock, Readiness, ReadinessCheck } from '../types/index.js';

/** A check of one service: resolves when it answers. */
export type Probe = () => Promise<unknown> | unknown;

/** How long a check may take before it counts as failing. */
export const READINESS_TIMEOUT_MS = 1_000;
/** How long an answer is reused. */
export const READINESS_CACHE_MS = 1_000;

export function readinessOf(probes: Record<string, Probe>, clock: Pick<Clock, 'now'>): () => Promise<Readiness> {
  let last: { at: number; answer: Readiness } | undefined;
  let running: Promise<Readiness> | undefined;
  const check = async (): Promise<Readiness> => {
    const names = Object.keys(probes);
    const results = await Promise.all(names.map((name) => timed(probes[name]!)));
    const checks = Object.fromEntries(names.map((name, i) => [name, results[i]!]));
    const answer = { ready: results.every((r) => r.status === 'ok'), checks };
    last = { at: clock.now(), answer };
    return answer;
  };
  return () => {
    if (last && clock.now() - last.at < READINESS_CACHE_MS) return Promise.resolve(last.answer);
    running ??= check().finally(() => (running = undefined));
    return running;
  };
}

async function timed(probe: Probe): Promise<ReadinessCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
    timer.unref();
  });
  try {
    await Promise.race([Promise.resolve().then(probe), timeout]);
    return { status: 'ok', latency_ms: elapsed(started) };
  } catch (error) {
    return { status: 'failing', latency_ms: elapsed(started), error: messageOf(error) };
  } finally {
    clearTimeout(timer);
  }
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;

/** The error's first line, without credentials a connection error may quote. */
function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .split('\n')[0]!
    .replace(/\/\/[^@/\s]*@/g, '//')
    .slice(0, 200);
}
