// X-Request-Id: the caller's when it is sane (1–128 characters a log line and a header can carry as
// they are), else a new UUID. Every reply carries it; error bodies name it (`request_id`).

import { randomUUID } from 'node:crypto';

// Nothing here that JSON escapes: the access log writes these ids as they are (test/observe/http-trace.test.ts).
const SANE = /^[A-Za-z0-9._~:/+=@-]{1,128}$/;

export function requestIdOf(header: string | null): string {
  return header !== null && SANE.test(header) ? header : randomUUID();
}
