// The Ledger conformance suite: every Ledger adapter (SQLite on a file or in memory, a PostgreSQL
// one, yours) must pass it. It holds the port's whole contract in runnable form; docs/ports.md
// says it in prose. Adapter-specific behaviour (schema, fsync, crash detection) stays in the
// adapter's own tests.

import type { Ledger } from '../../ports/ledger.js';
import { ledgerBookTests } from './ledger-books.js';
import { ledgerConcurrencyTests } from './ledger-concurrency.js';
import { ledgerIdempotencyTests } from './ledger-idempotency.js';
import { ledgerLifecycleTests } from './ledger-lifecycle.js';
import type { LedgerHandle, LedgerSubject } from './ledger-subject.js';
import { type ConformanceOptions, suiteKit } from './suite-kit.js';
import { vitestApi } from './vitest-api.js';

export type { LedgerHandle, LedgerSubject } from './ledger-subject.js';

/**
 * Registers vitest tests that a `Ledger` adapter must pass (reserve/settle arithmetic, idempotent
 * settlements, concurrency across instances, crash rule, idempotency claims, bad input; docs/ports.md).
 * Call it at the top level of a test file run by `vitest run`. Without `reopen`/`openAnother` on the
 * handle, the restart and multi-instance tests are skipped. `knownGaps` lists test titles expected to fail.
 * @throws {Error} when called outside a vitest worker.
 */
export function describeLedgerConformance(name: string, makeLedger: () => Promise<LedgerHandle>, options: ConformanceOptions = {}): void {
  const { describe, beforeEach, afterEach } = vitestApi();
  describe(`Ledger conformance: ${name}`, () => {
    let handle: LedgerHandle | undefined;
    let current: Ledger | undefined;
    let open: Ledger[] = [];

    const subject: LedgerSubject = {
      get ledger() {
        if (!current) throw new Error('conformance suite: no ledger is open');
        return current;
      },
      get canReopen() {
        return handle?.reopen !== undefined;
      },
      get canOpenAnother() {
        return handle?.openAnother !== undefined;
      },
      async restart() {
        if (!handle?.reopen) throw new Error('conformance suite: this adapter has no reopen()');
        await subject.close(subject.ledger);
        current = await handle.reopen();
        open.push(current);
        return current;
      },
      async another() {
        if (!handle?.openAnother) throw new Error('conformance suite: this adapter has no openAnother()');
        const other = await handle.openAnother();
        open.push(other);
        return other;
      },
      async close(ledger) {
        open = open.filter((l) => l !== ledger);
        await ledger.close();
      },
    };

    beforeEach(async () => {
      handle = await makeLedger();
      current = handle.ledger;
      open = [current];
    });
    afterEach(async () => {
      const closing = open;
      open = [];
      current = undefined;
      try {
        await Promise.all(closing.map((l) => l.close()));
      } finally {
        await handle?.cleanup();
        handle = undefined;
      }
    });

    const kit = suiteKit(options);
    ledgerBookTests(kit, subject);
    ledgerConcurrencyTests(kit, subject);
    ledgerLifecycleTests(kit, subject);
    ledgerIdempotencyTests(kit, subject);
    kit.finish();
  });
}
