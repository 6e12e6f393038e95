// One organization's reserves and unkeyed settlements, batched by group commit (group-commit.ts) into
// one call of books_many (sql-batches.ts): one statement in flight per organization from this instance,
// carrying every reserve and settlement that arrived while the previous one ran. Each call resolves or
// rejects as the one-call statement would have: a batch that fails fails every call in it, and each
// call's own error handling (a lost reply read back, a hold released) then runs per call.

import type { Reservation, ReserveOutcome, Settlement } from '../../ports/ledger.js';
import type { Clock } from '../../types/index.js';
import type { PostgresDatabase } from './database.js';
import { GroupCommit } from './group-commit.js';

type Call = { reserve: Reservation } | { settle: Settlement };

export class BooksBatch {
  readonly #lanes: GroupCommit<Call, ReserveOutcome | number>;

  /** `owner`: the instance whose holds the reserves become. */
  constructor(db: PostgresDatabase, owner: string, clock: Clock) {
    const { s } = db;
    this.#lanes = new GroupCommit(async (organization, calls) => {
      // books_many's arrays in one pass over the calls (this runs once per statement, for up to 256 calls).
      const settleIds: string[] = [];
      const searches: boolean[] = [];
      const charges: number[] = [];
      const answered: boolean[] = [];
      const reserveIds: string[] = [];
      const amounts: number[] = [];
      for (const c of calls) {
        if ('settle' in c) {
          const st = c.settle;
          settleIds.push(st.id);
          searches.push(st.kind === 'search');
          charges.push(st.charged);
          answered.push(st.answered);
        } else {
          reserveIds.push(c.reserve.id);
          amounts.push(c.reserve.amount);
        }
      }
      const rows = await db.query(
        `SELECT o_charged, o_states, o_available FROM ${s}.books_many($1, $2::uuid, $3::bigint,
           $4::text[], $5::boolean[], $6::bigint[], $7::boolean[], $8::text[], $9::bigint[])`,
        // Dated by the ledger's Clock (the trace is pruned against it), like the SQLite ledger.
        [organization, owner, clock.now(), settleIds, searches, charges, answered, reserveIds, amounts],
      );
      const row = rows[0]!;
      const charged = row['o_charged'] as unknown[];
      const states = row['o_states'] as string[];
      const available = row['o_available'] as unknown[];
      let r = 0;
      let st = 0;
      return calls.map((c) => {
        if ('settle' in c) return Number(charged[st++]);
        const i = r++;
        return outcomeOf(states[i]!, Number(available[i]), reserveIds[i]!);
      });
    });
  }

  reserve(r: Reservation): Promise<ReserveOutcome> {
    return this.#lanes.submit(r.organization, { reserve: r }) as Promise<ReserveOutcome>;
  }

  /** An unkeyed settlement only (a keyed one locks its claim row too: it goes on its own). */
  settle(st: Settlement): Promise<number> {
    return this.#lanes.submit(st.organization, { settle: st }) as Promise<number>;
  }
}

function outcomeOf(state: string, available: number, id: string): ReserveOutcome | Error {
  if (state === 'ok') return { ok: true };
  if (state === 'unknown_organization') return { ok: false, reason: 'unknown_organization' };
  // The one-call reserve raised this for an id already used (its transaction rolled back: nothing held).
  if (state === 'duplicate') return Object.assign(new Error(`websift: reservation id ${id} is already used`), { code: '23505' });
  return { ok: false, reason: 'insufficient_credits', available };
}
