// The usage answer (GET /api/usage).

import { z } from 'zod';
import { count, timestamp } from './common.js';

export const usageResponse = z.strictObject({
  organization: z.string(),
  credits: z.strictObject({ balance: count(), used: count() }),
  requests: z.strictObject({ search: count(), extract: count(), total: count(), free: count('Requests charged 0') }),
  timestamp: timestamp(),
});
