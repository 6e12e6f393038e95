// The Ledger port: balances, reservations and request counters of every organization.
// The core decides prices; a ledger only stores them atomically. Every method is async so a
// networked ledger (PostgreSQL) fits the same interface as the embedded SQLite one.

import type { OrganizationInfo } from '../types.js';

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
  /** Charges, releases the rest of the reservation and counts the request, in one transaction. Resolves to the amount charged. */
  settle(settlement: Settlement): Promise<number>;
  usage(organization: string): Promise<UsageCounts | null>;
  close(): Promise<void>;
}
