// A ledger instance's lease: its row in `instances`, renewed every leaseMs / 3 by an unref'd timer (a
// lease never keeps the process alive). Holds and idempotency claims name their instance; once its
// lease has run out (a crash, a frozen process, a lost network), any other instance may release them:
// every heartbeat sweeps the holds of dead instances, and a reservation refused for want of credits
// first releases its organization's. Lease times are the PostgreSQL server's now(), not the ledger's
// Clock: instances on different hosts compare leases they did not write, and one clock they all share
// cannot be skewed between them (a host clock running ahead would make live instances look dead).

import { randomUUID } from 'node:crypto';
import type { PostgresDatabase } from './database.js';

export class InstanceLease {
  readonly id = randomUUID();
  readonly #db: PostgresDatabase;
  /** Runs after each heartbeat that reached the database (pruning, retried releases). */
  readonly #afterBeat: () => Promise<void>;
  #registering: Promise<void> | undefined;
  #registered = false;
  #timer: NodeJS.Timeout | undefined;
  #beating: Promise<void> | undefined;
  #stopped = false;

  constructor(db: PostgresDatabase, afterBeat: () => Promise<void>) {
    this.#db = db;
    this.#afterBeat = afterBeat;
  }

  /** Registers the instance (once) and starts the heartbeat: holds may only be written after this. */
  ensure(): Promise<void> {
    if (this.#registered) return Promise.resolve();
    this.#registering ??= this.#beat().then(
      () => {
        this.#registered = true;
        if (this.#stopped) return;
        this.#timer = setInterval(() => void this.beat(), Math.max(1, Math.floor(this.#db.leaseMs / 3)));
        this.#timer.unref();
      },
      (error: unknown) => {
        this.#registering = undefined;
        throw error;
      },
    );
    return this.#registering;
  }

  /** One heartbeat (skipped while the previous one runs); failures wait for the next one. */
  beat(): Promise<void> {
    this.#beating ??= this.#beat()
      .then(() => this.#afterBeat())
      .catch(() => undefined) // unreachable: the lease may lapse; the next beat re-registers the instance
      .finally(() => {
        this.#beating = undefined;
      });
    return this.#beating;
  }

  async #beat(): Promise<void> {
    await this.#db.query(`SELECT ${this.#db.s}.heartbeat($1::uuid, $2::bigint)`, [this.id, Math.ceil(this.#db.leaseMs)]);
  }

  /**
   * Stops the heartbeat; if the instance registered, releases its pending holds and removes its row.
   * Unreachable, that is left to the lease: the others release the holds once it has run out.
   */
  async close(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#beating;
    await this.#registering?.catch(() => undefined);
    if (!this.#registered) return;
    await this.#db.query(`SELECT ${this.#db.s}.close_instance($1::uuid)`, [this.id]).catch(() => undefined);
  }
}
