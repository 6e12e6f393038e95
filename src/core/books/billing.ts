// Every price rule of the spec, in one place. Reservations take the worst case of a request
// before any work; settlement takes the actual price, which never exceeds the reservation.

/** Spec "Credits: search" rule 3: include_content is billed by pages delivered. */
export function contentPrice(delivered: number): number {
  if (delivered <= 0) return 1;
  if (delivered <= 5) return 3;
  return 6;
}

/** Worst case of a search (contract §3): 1 plain; with content, the price of every requested page delivered. */
export function searchReserve(includeContent: boolean, contentResults: number): number {
  return includeContent ? contentPrice(contentResults) : 1;
}

export type SearchOutcomeKind = 'success' | 'confirmed_empty' | 'unconfirmed_empty';

/**
 * Price of a search that was not a free repeat: 1 for a success or a confirmed empty (also with
 * include_content: plain rate), the delivered-pages tier for a success with content, 0 for an
 * unconfirmed empty.
 */
export function searchPrice(outcome: SearchOutcomeKind, contentDelivered?: number): number {
  if (outcome === 'unconfirmed_empty') return 0;
  if (outcome === 'confirmed_empty') return 1;
  return contentDelivered === undefined ? 1 : contentPrice(contentDelivered);
}

/** Extract: per successfully extracted URL, 1 in normal mode and 5 with stealth. */
export function extractUrlPrice(stealth: boolean): number {
  return stealth ? 5 : 1;
}

/** Free repeats of search and extract: 5 minutes from the charged request. */
export const REPEAT_WINDOW_MS = 5 * 60_000;
/** A confirmed-empty answer is cached this long, for every organization. */
export const CONFIRMED_EMPTY_TTL_MS = 15 * 60_000;
