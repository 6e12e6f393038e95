// The `Idempotency-Key` request header of the charged endpoints (search, crawl), handed to the engine as
// ctx.idempotencyKey, and the `Idempotent-Replayed: true` header on an answer that is the stored first
// answer of its key. The engine names the key `idempotencyKey` in its 400s; over HTTP the client sent a
// header, so the problem names the header instead.

import { IDEMPOTENCY_KEY_FIELD, isIdempotentReplay } from '../core/books/index.js';
import { InvalidRequestError } from '../errors.js';
import type { ApiRequest } from './exchange.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The header's value (trimmed by the Headers API; several headers arrive joined by ", "), or undefined. */
export function idempotencyKeyOf(request: ApiRequest): string | undefined {
  // Lower case: the node binding reads its header object by the name as given (no lower-casing to do).
  return request.headers.get('idempotency-key') ?? undefined;
}

const REPLAYED = { 'idempotent-replayed': 'true' } as const;

/** Headers of a 200 answer: marks a replayed first answer (undefined for the usual answer: nothing to add). */
export function replayHeaders(answer: unknown): Readonly<Record<string, string>> | undefined {
  return isIdempotentReplay(answer) ? REPLAYED : undefined;
}

/** An engine 400 about `idempotencyKey`, renamed to the header (same code and timing); anything else as it is. */
export function asHeaderProblem(error: unknown): unknown {
  if (!(error instanceof InvalidRequestError) || !error.problems.some((p) => p.field === IDEMPOTENCY_KEY_FIELD)) return error;
  const problems = error.problems.map((p) => (p.field === IDEMPOTENCY_KEY_FIELD ? { ...p, field: IDEMPOTENCY_KEY_HEADER } : p));
  const renamed = new InvalidRequestError(problems, error.code);
  renamed.timing = error.timing;
  return renamed;
}
