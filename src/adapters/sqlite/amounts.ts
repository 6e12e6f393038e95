// Input checks of the SQLite ledger: credit amounts are safe integers, so a bad value (1.5, NaN, a
// string from an unchecked config) is refused with a clear error instead of turning a balance into a
// REAL, passing a comparison by accident (NaN), or reading as "organization exists".

/** Throws a TypeError for a non-number, a RangeError for a number that is not a safe integer ≥ `min`. */
export function checkCredits(what: string, value: unknown, min: 0 | 1): asserts value is number {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number (got ${typeof value})`);
  if (!Number.isSafeInteger(value) || value < min) {
    const kind = min === 1 ? 'a positive' : 'a non-negative';
    throw new RangeError(`${what} must be ${kind} safe integer (got ${value})`);
  }
}
