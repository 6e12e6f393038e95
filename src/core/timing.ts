// response_time (integer ms) and timestamp (ISO 8601 UTC), both from the Clock.

import { WebsiftError } from '../errors.js';
import type { Clock } from '../types/index.js';

export interface Timing {
  response_time: number;
  timestamp: string;
}

export function timingSince(clock: Clock, start: number): Timing {
  const now = clock.now();
  return { response_time: Math.max(0, Math.round(now - start)), timestamp: new Date(now).toISOString() };
}

/** Stamps a WebsiftError's body with timing before it leaves the engine; other errors pass through. */
export function stampError(error: unknown, clock: Clock, start: number): unknown {
  if (error instanceof WebsiftError) error.timing = timingSince(clock, start);
  return error;
}
