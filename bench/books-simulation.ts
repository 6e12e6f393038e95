// The long run of the books simulation (test/support/books-sim/): seeds × calls on SQLite and/or
// PostgreSQL, one summary line per seed, exit 1 on any violation (each printed).
//   npx tsx bench/books-simulation.ts --calls 100000 --seed 1..4 [--ledger sqlite|postgres|both]
//     [--lock-wait-ms 5000] [--lease-ms 2000] [--concurrency 8] [--calls-per-fault 40] [--calls-per-kill 120]
// Needs PostgreSQL at WEBSIFT_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) for postgres.

import { parseArgs } from 'node:util';
import { type SimOptions, simulate, summary } from '../test/support/books-sim/simulate.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1..2' },
    ledger: { type: 'string', default: 'both' },
    'lock-wait-ms': { type: 'string' },
    'lease-ms': { type: 'string' },
    concurrency: { type: 'string' },
    'calls-per-fault': { type: 'string' },
    'calls-per-kill': { type: 'string' },
  },
});
const [from, to] = values.seed.includes('..') ? values.seed.split('..').map(Number) : [Number(values.seed), Number(values.seed)];
const ledgers = (values.ledger === 'both' ? ['sqlite', 'postgres'] : [values.ledger]) as SimOptions['ledger'][];
const num = (v: string | undefined) => (v === undefined ? {} : Number(v));
let failed = 0;
for (let seed = from!; seed <= to!; seed++) {
  for (const ledger of ledgers) {
    const report = await simulate({
      ledger,
      seed,
      calls: Number(values.calls),
      settleMs: 120_000,
      ...(values['lock-wait-ms'] ? { lockWaitMs: num(values['lock-wait-ms']) as number } : {}),
      ...(values['lease-ms'] ? { leaseMs: num(values['lease-ms']) as number } : {}),
      ...(values.concurrency ? { concurrency: num(values.concurrency) as number } : {}),
      ...(values['calls-per-fault'] ? { callsPerFault: num(values['calls-per-fault']) as number } : {}),
      ...(values['calls-per-kill'] ? { callsPerKill: num(values['calls-per-kill']) as number } : {}),
    });
    console.log(summary(report));
    for (const v of report.violations) console.log(`  violation: ${v}`);
    if (report.violations.length) failed++;
  }
}
process.exit(failed ? 1 : 0);
