// Stealth rendering: playwright-core + the system Chromium, behind websift's egress proxy.
export { createPlaywrightRenderer } from './playwright-renderer.js';
export type { PlaywrightRenderer, PlaywrightRendererOptions } from './playwright-renderer.js';
export { DEFAULT_EXECUTABLE, chromiumArgs } from './launch-options.js';
export { startEgressProxy, BLOCKED_HEADER } from './egress-proxy.js';
export type { EgressProxy, EgressFailure, EgressProxyOptions } from './egress-proxy.js';
