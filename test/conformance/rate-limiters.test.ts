// The in-process GCRA against the RateLimiter conformance suite (the Redis one runs it in
// test/redis/rate-limiter.test.ts).

import { InProcessRateLimiter } from '../../src/core/rate-limit.js';
import { describeRateLimiterConformance } from '../../src/testing/index.js';
import { GCRA_GAPS } from './rate-limiter-gaps.js';

describeRateLimiterConformance('InProcessRateLimiter', async (policy) => ({ limiter: new InProcessRateLimiter(policy) }), {
  knownGaps: GCRA_GAPS,
});
