// Reserve-then-settle (contract §3, 402): the worst case of a request is held before any work;
// afterwards the actual price is charged and the rest released, in one ledger transaction.
// Errors settle at 0, so no error outcome is ever charged. A call with an idempotency key passes it
// (HoldOptions) so the ledger marks the key's claim paid together with the charge; a rerun of a call an
// earlier attempt already paid for reserves and settles nothing (core/books/idempotency.ts).

import {
  type CallTraceContext,
  ChargeTrace,
  type ChargeTraceContext,
  callWorkRead,
  channels,
  noteCharge,
  noteTime,
  traced,
} from '../../channels.js';
import { InsufficientCreditsError, UnauthorizedError } from '../../errors.js';
import type { Ledger, RequestKind, Settlement } from '../../ports/ledger.js';
import type { Clock } from '../../types/index.js';
import type { HoldOptions } from '../call.js';
import { timeOrderedIds } from './request-id.js';

export type { HoldOptions };

export interface Hold {
  readonly amount: number;
  /** Charges `charged` (≤ amount) and counts the answered request. Resolves to the amount charged. */
  settle(charged: number): Promise<number>;
  /**
   * Releases everything. `answered`: the request still got an answer (a 503 or 504), so it counts
   * in usage as a free request. Safe to call after settle (then a no-op).
   */
  release(answered: boolean): Promise<void>;
}

export class Credits {
  readonly #ledger: Ledger;
  readonly #clock: Clock;
  readonly #newId: () => string;

  constructor(ledger: Ledger, clock: Clock) {
    this.#ledger = ledger;
    this.#clock = clock;
    this.#newId = timeOrderedIds(clock);
  }

  /**
   * Throws InsufficientCreditsError (402) or UnauthorizedError('unknown_organization'). `trace`: the
   * call's websift:search/extract context, named by the settlement's websift:charge context.
   */
  async hold(organization: string, kind: RequestKind, amount: number, options: HoldOptions = {}, trace?: CallTraceContext): Promise<Hold> {
    if (options.paid !== undefined) return paidHold(options.paid);
    const key = options.idempotencyKey;
    const id = this.#newId();
    if (amount > 0) {
      const outcome = await this.#ledger.reserve({ id, organization, amount }, this.#clock.now());
      if (!outcome.ok) {
        if (outcome.reason === 'unknown_organization') throw unknownOrganization(organization);
        throw new InsufficientCreditsError(amount, outcome.available);
      }
    }
    let done = false;
    const finish = async (charged: number, answered: boolean): Promise<number> => {
      if (done) return 0;
      done = true;
      if (!(Number.isInteger(charged) && charged >= 0 && charged <= amount)) {
        // A price above the reservation is a bug in the core; never charge what wasn't held.
        await this.#ledger.settle({ id, organization, kind, charged: 0, answered: false });
        throw new Error(`websift: price ${charged} outside the reservation of ${amount}`);
      }
      const settlement = { id, organization, kind, charged, answered, ...(key !== undefined ? { idempotencyKey: key } : {}) };
      // websift's own readers (metrics, otel) get the settlement from a note on the traced call; an APM
      // listening to websift:charge, from the channel. Neither: the settlement alone, without traced's
      // closure and promise.
      if (trace === undefined || !callWorkRead()) return this.#settle(settlement, amount, trace);
      const start = noteTime();
      let paid: number;
      try {
        paid = await this.#settle(settlement, amount, trace);
      } catch (error) {
        noteCharge(trace, kind, amount, undefined, error, start, noteTime());
        throw error;
      }
      noteCharge(trace, kind, amount, paid, undefined, start, noteTime());
      return paid;
    };
    return {
      amount,
      settle: (charged) => finish(charged, true),
      release: async (answered) => {
        await finish(0, answered);
      },
    };
  }

  /** The ledger's settlement, on the websift:charge channel when someone listens to it (an APM). */
  #settle(settlement: Settlement, reserved: number, trace: CallTraceContext | undefined): Promise<number> {
    if (!channels.charge.hasSubscribers) return this.#ledger.settle(settlement);
    const { kind, organization } = settlement;
    const context = (): ChargeTraceContext => new ChargeTrace(kind, organization, reserved, trace);
    return traced(channels.charge, context, () => this.#ledger.settle(settlement), finishCharge);
  }
}

/** What was charged, on the settlement's websift:charge context, before its end is published. */
function finishCharge(context: ChargeTraceContext, failed: boolean, paid: unknown): void {
  if (!failed) context.charged = paid as number;
}

/** The hold of a call already paid for: settles to the paid amount and touches no ledger. */
function paidHold(paid: number): Hold {
  return { amount: 0, settle: async () => paid, release: async () => {} };
}

export function unknownOrganization(organization: string): UnauthorizedError {
  return new UnauthorizedError(`Unknown organization: ${organization}`, 'unknown_organization');
}
