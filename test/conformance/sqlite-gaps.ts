// Conformance tests the SQLite adapters are known to fail today (reported to the lead). Each runs as
// an expected failure: the day the adapter is fixed the run turns red until its line is removed.

export const SQLITE_LEDGER_GAPS: readonly string[] = [
  // reserve(1.5) is granted (reserved becomes REAL) and reserve(NaN) answers insufficient_credits.
  'reserve rejects amounts that are not positive safe integers and holds nothing',
  // createOrganization(-1) resolves false ("exists"), createOrganization(1.5)/addCredits(1.5) succeed.
  'createOrganization and addCredits reject credits that are not non-negative safe integers',
  // A settled id leaves no trace: a second settle charges again (from the free balance) and counts again.
  'settling a reservation twice charges and counts it once',
  'a release after a settle, or a settle after a release, changes nothing',
];

export const SQLITE_KEY_STORE_GAPS: readonly string[] = [];
