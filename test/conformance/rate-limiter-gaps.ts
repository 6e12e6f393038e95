// Known gaps of our rate limiters against their conformance suite (see src/testing/conformance/rate-limiter.ts).

/** Float timestamps lose a fractional interval's burst; the in-process and the Redis GCRA share the arithmetic. */
export const GCRA_GAPS = ['fractional intervals: a full burst is admitted, the edge falls between two milliseconds'];
