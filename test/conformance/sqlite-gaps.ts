// Conformance tests the SQLite adapters are known to fail today (reported to the lead). Each runs as
// an expected failure: the day the adapter is fixed the run turns red until its line is removed.

export const SQLITE_LEDGER_GAPS: readonly string[] = [];

export const SQLITE_KEY_STORE_GAPS: readonly string[] = [];
