// Idempotency keys (contract §5): a client that lost its answer retries with the same key and gets the
// first answer, charged and counted once. Wraps the search and extract runners: after auth, rate limit
// and validation, and before any other work, the key is claimed in the ledger (shared by every instance)
// under a fingerprint of the call; what the claim says decides the call (docs/engine.md, "Idempotency keys").

import { createHash } from 'node:crypto';
import { IdempotencyInProgressError, InvalidRequestError, LedgerUnavailableError } from '../../errors.js';
import { type Ledger, type RequestKind, UNSTORED_ANSWER } from '../../ports/ledger.js';
import type { Clock } from '../../types/index.js';
import type { Call } from '../call.js';
import type { HoldOptions } from './credits.js';

/** 1–255 printable ASCII characters (what an HTTP header carries safely, and a bounded row in the ledger). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export const IDEMPOTENCY_KEY_FIELD = 'idempotencyKey';

export interface IdempotencyDeps {
  ledger: Ledger;
  clock: Clock;
}

/** What every answer of search and extract has: the charge it reports. */
type Answer = { metadata: { credits_used: number } };

/** Answers served from a stored first answer (no property on them: the JSON stays the first answer's). */
const replays = new WeakSet<object>();

/** True when `answer` (of engine.search / engine.extract) is the stored first answer of its idempotency key. */
export function isIdempotentReplay(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && replays.has(answer);
}

/** Throws InvalidRequestError (field `idempotencyKey`) unless `key` is absent or a valid key. */
export function checkIdempotencyKey(key: unknown): asserts key is string | undefined {
  if (key === undefined) return;
  if (typeof key !== 'string') throw keyProblem('must be a string');
  if (!KEY_PATTERN.test(key)) throw keyProblem('must be 1 to 255 printable ASCII characters');
}

/** SHA-256 hex of the call's kind and its parsed parameters: defaults given or left out are the same call. */
export function callFingerprint(kind: RequestKind, params: object): string {
  return createHash('sha256')
    .update(`${kind}\n${canonicalJson(params)}`)
    .digest('hex');
}

/**
 * Runs `run` under the idempotency key `key` (none: runs it as it is). `params` are the parsed
 * parameters that make the call what it is (its fingerprint).
 */
export async function runIdempotent<T extends Answer>(
  deps: IdempotencyDeps,
  kind: RequestKind,
  params: object,
  call: Call,
  key: unknown,
  run: (call: Call) => Promise<T>,
): Promise<T> {
  checkIdempotencyKey(key);
  if (key === undefined) return run(call);
  const organization = call.org;
  const outcome = await deps.ledger.claim({ organization, key, fingerprint: callFingerprint(kind, params) }, deps.clock.now());
  switch (outcome.state) {
    case 'replay': {
      const answer = JSON.parse(outcome.response) as T;
      replays.add(answer);
      return answer;
    }
    case 'mismatch':
      throw keyProblem('was already used with other parameters in the last 24 hours; use a new key for a new request');
    case 'in_progress':
      throw new IdempotencyInProgressError();
    case 'claimed':
      return runClaimed(deps, organization, key, { ...call, billing: { idempotencyKey: key } }, run);
    case 'paid': {
      // The first attempt was charged and its answer lost: the same request again, charged and counted once.
      const billing: HoldOptions = { paid: outcome.charged };
      const answer = await runClaimed(deps, organization, key, { ...call, billing }, run, (a) => {
        a.metadata.credits_used = outcome.charged; // also when the rerun was answered as a free repeat of it
      });
      return answer;
    }
  }
}

async function runClaimed<T extends Answer>(
  deps: IdempotencyDeps,
  organization: string,
  key: string,
  call: Call,
  run: (call: Call) => Promise<T>,
  adjust?: (answer: T) => void,
): Promise<T> {
  let answer: T;
  try {
    answer = await run(call);
  } catch (error) {
    // Errors are never charged: an unpaid claim is dropped so a retry runs afresh (a paid one stays paid).
    await deps.ledger.finishClaim(organization, key, null, deps.clock.now()).catch(() => undefined);
    throw error;
  }
  adjust?.(answer);
  // A free answer is not stored: a retry reruns it free (`paid` with 0), so free repeats under fresh
  // keys never copy a paid answer into the ledger.
  const stored = answer.metadata.credits_used === 0 ? UNSTORED_ANSWER : JSON.stringify(answer);
  try {
    await deps.ledger.finishClaim(organization, key, stored, deps.clock.now());
  } catch (error) {
    // The answer is charged and in hand: deliver it. The ledger unreachable, it finishes the claim
    // itself once it is back; otherwise give the claim up (a retry then reruns it free, `paid`).
    if (!(error instanceof LedgerUnavailableError)) {
      await deps.ledger.finishClaim(organization, key, null, deps.clock.now()).catch(() => undefined);
    }
  }
  return answer;
}

function keyProblem(message: string): InvalidRequestError {
  return new InvalidRequestError([{ field: IDEMPOTENCY_KEY_FIELD, message }]);
}

/** JSON with object keys sorted at every level (undefined members left out, as JSON.stringify does). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
