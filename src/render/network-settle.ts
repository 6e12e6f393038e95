// "The network has settled": no request of the page in flight for a quiet period. Pages that poll or
// stream forever never settle, so the wait is always bounded by the caller.

import type { Page, Request } from 'playwright-core';

export interface NetworkTracker {
  /** Resolves once nothing was in flight for `quietMs`, or after `maxMs`, whichever comes first. */
  settled(quietMs: number, maxMs: number): Promise<void>;
  dispose(): void;
}

export function trackNetwork(page: Page): NetworkTracker {
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  const onStart = (request: Request) => {
    inFlight.add(request);
    lastChange = Date.now();
  };
  const onEnd = (request: Request) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('request', onStart);
  page.on('requestfinished', onEnd);
  page.on('requestfailed', onEnd);

  return {
    async settled(quietMs, maxMs) {
      const end = Date.now() + Math.max(0, maxMs);
      // Polling keeps this simple and cheap (a few checks per quiet period).
      const step = Math.max(10, Math.min(50, Math.floor(quietMs / 4)));
      for (;;) {
        const now = Date.now();
        if (now >= end) return;
        if (inFlight.size === 0 && now - lastChange >= quietMs) return;
        await new Promise((r) => setTimeout(r, Math.min(step, end - now)));
      }
    },
    dispose() {
      page.off('request', onStart);
      page.off('requestfinished', onEnd);
      page.off('requestfailed', onEnd);
    },
  };
}
