// Stealth rendering: playwright-core + the system Chromium, behind websift's egress proxy.

export type { EgressFailure, EgressProxy, EgressProxyOptions } from './egress-proxy.js';
export { BLOCKED_HEADER, startEgressProxy } from './egress-proxy.js';
export { chromiumArgs, DEFAULT_EXECUTABLE } from './launch-options.js';
export type { PlaywrightRenderer, PlaywrightRendererOptions } from './playwright-renderer.js';
export { createPlaywrightRenderer } from './playwright-renderer.js';
