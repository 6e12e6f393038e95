// What the Ledger conformance tests are given: the adapter's handle, and the subject a test sees.

import type { Ledger } from '../../ports/ledger.js';

export interface LedgerHandle {
  /** A fresh ledger on empty storage. */
  ledger: Ledger;
  /**
   * Opens a new ledger on the same storage, as a restarted process would. The suite has closed the
   * previous ledger (cleanly) before calling it. Omit it for storage that dies with its handle (':memory:').
   */
  reopen?: () => Promise<Ledger>;
  /** Opens a second live instance on the same storage, as another process would, while the first stays open. */
  openAnother?: () => Promise<Ledger>;
  /** Removes the storage. The suite has closed every ledger it was given before calling it. */
  cleanup(): Promise<void>;
}

/** What a test sees: the current ledger and the optional hooks (a test skips itself without them). */
export interface LedgerSubject {
  readonly ledger: Ledger;
  readonly canReopen: boolean;
  readonly canOpenAnother: boolean;
  /** Closes the current ledger and reopens the storage; the new ledger becomes `ledger`. */
  restart(): Promise<Ledger>;
  /** A second live instance (closed by the suite after the test). */
  another(): Promise<Ledger>;
  /** Closes one of this test's ledgers now (the suite won't close it again). */
  close(ledger: Ledger): Promise<void>;
}

/** A fixed clock reading. A Ledger stores `now`; it compares it only for idempotency claims (their 24 h). */
export const NOW = Date.UTC(2026, 0, 1);
