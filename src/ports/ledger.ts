// The Ledger port: balances, reservations and request counters of every organization.
// The core decides prices; a ledger only stores them atomically. Every method is async so a
// networked ledger (PostgreSQL) fits the same interface as the embedded SQLite one.

import type { OrganizationInfo } from '../types/index.js';

export type RequestKind = 'search' | 'extract';

export interface Reservation {
  /** Unique per request (a UUID). */
  id: string;
  organization: string;
  /** Credits held for the worst case of the request. */
  amount: number;
}

export type ReserveOutcome =
  | { ok: true }
  | { ok: false; reason: 'insufficient_credits'; available: number }
  | { ok: false; reason: 'unknown_organization' };

export interface Settlement {
  /** The reservation's id; a request that reserved nothing (a free repeat) passes a fresh id. */
  id: string;
  organization: string;
  kind: RequestKind;
  /** Actual price; a ledger never charges more than was reserved nor below a zero balance. */
  charged: number;
  /** True when the request was answered (200/503/504) and so counts in usage. */
  answered: boolean;
  /**
   * The caller's idempotency key when the call carried one (and `claim` claimed it): the ledger marks
   * that claim paid with the amount charged, in the same transaction as the charge, so a retry after a
   * crash between charge and answer is never charged twice.
   */
  idempotencyKey?: string;
}

/** One use of an idempotency key: who, the key, and what it was used for. */
export interface IdempotencyClaim {
  organization: string;
  /** The caller's key (1–255 printable ASCII characters). */
  key: string;
  /** SHA-256 hex of the call's kind and normalized parameters: the same key with others is refused. */
  fingerprint: string;
}

export type ClaimOutcome =
  /** First use (or an earlier attempt failed before it was charged, or its owner died uncharged): run the call. */
  | { state: 'claimed' }
  /** The call finished before: answer with this (the first answer, as JSON), charge and count nothing. */
  | { state: 'replay'; response: string }
  /**
   * The call was charged but its answer never stored (the instance died), or it was answered without
   * storing the answer (a free answer, or one past the organization's cap): run it again free and report `charged`.
   */
  | { state: 'paid'; charged: number }
  /** The key was used with other parameters (a different fingerprint) within its lifetime. */
  | { state: 'mismatch' }
  /** A live instance is running the first use right now. */
  | { state: 'in_progress' };

/** How long a key is remembered: a retry with it within this time is answered from the first use. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/**
 * What finishClaim stores for an answer not worth keeping (a free one: a rerun costs nothing): later
 * claims get `paid` and rerun the call free instead of replaying bytes. Never valid JSON, so never an answer.
 */
export const UNSTORED_ANSWER = '';

/**
 * Default cap of the bytes of stored answers per organization (the last 24 h of keyed calls): past it, a
 * keyed answer is finished as UNSTORED_ANSWER (a retry reruns it free), so one organization cannot grow
 * the ledger without bound. Adapters take it as an option (`maxStoredAnswerBytes`).
 */
export const DEFAULT_MAX_STORED_ANSWER_BYTES = 64 * 1024 * 1024;

/** `maxStoredAnswerBytes` as given, or the default; a RangeError (prefixed by `who`) unless a non-negative integer (0 stores none). */
export function storedAnswerCap(value: number | undefined, who: string): number {
  if (value === undefined) return DEFAULT_MAX_STORED_ANSWER_BYTES;
  if (!(Number.isSafeInteger(value) && value >= 0)) {
    throw new RangeError(`${who}: maxStoredAnswerBytes must be a non-negative integer of bytes (got ${String(value)})`);
  }
  return value;
}

export interface UsageCounts {
  balance: number;
  used: number;
  requests: Record<RequestKind, number>;
  /** Answered requests that were charged 0. */
  free: number;
}

export interface Ledger {
  /** Resolves false when the organization already exists. */
  createOrganization(id: string, credits: number, now: number): Promise<boolean>;
  /** Resolves to the new balance, or null for an unknown organization. */
  addCredits(id: string, credits: number): Promise<number | null>;
  organization(id: string): Promise<OrganizationInfo | null>;
  listOrganizations(): Promise<OrganizationInfo[]>;
  /** Holds `amount` if balance minus pending reservations covers it; nothing else changes. */
  reserve(reservation: Reservation, now: number): Promise<ReserveOutcome>;
  /**
   * Charges, releases the rest of the reservation and counts the request, in one transaction. Resolves to
   * the amount charged. Rejects only when nothing stays charged: a networked ledger that lost the reply
   * reads the outcome back first, and one that cannot learn it voids the settlement once the database is
   * back (an unkeyed one is refunded if it did commit; a keyed one leaves its claim `paid`, so a retry
   * with the key reruns free). Its hold is then released in the background.
   */
  settle(settlement: Settlement): Promise<number>;
  usage(organization: string): Promise<UsageCounts | null>;
  /**
   * Claims an idempotency key for one call, atomically across every instance sharing the storage. A
   * claim belongs to the ledger instance that made it (like a reservation): one whose instance died
   * (crashed, or closed without finishing it) can be claimed again; keys older than
   * IDEMPOTENCY_TTL_MS (by `now`) are forgotten.
   */
  claim(claim: IdempotencyClaim, now: number): Promise<ClaimOutcome>;
  /**
   * Ends this instance's claim: with the answer delivered (JSON), later claims replay it (past the
   * organization's cap of stored bytes, or with UNSTORED_ANSWER, they get `paid`: a free rerun); with
   * null (the call failed), an unpaid claim is dropped so a retry runs afresh, and a paid one stays
   * `paid`. One that fails for want of the database is retried by the ledger in the background (and
   * before this instance's next claim of the key) until it goes through or the ledger closes, so the
   * claim never keeps a live owner that will not finish it.
   */
  finishClaim(organization: string, key: string, response: string | null, now: number): Promise<void>;
  close(): Promise<void>;
}
