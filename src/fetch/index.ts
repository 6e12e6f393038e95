// The fetch layer: address policy, the undici Fetcher, robots.txt, type gating, charsets, the page loader.
export { blockedReason, checkUrlHost, isIpLiteral } from './address-policy.js';
export { decodeBody } from './charset.js';
export type { LookupFunction } from './guarded-connector.js';
export type { LoadedDocument, PageLoader, PageLoaderOptions } from './load-page.js';
export { createPageLoader, DEFAULT_MAX_BYTES, DEFAULT_PAGE_TIMEOUT_MS, statusLine } from './load-page.js';
export { MAX_REDIRECTS } from './redirects.js';
export type { RobotsOptions, RobotsPolicy } from './robots.js';
export { createRobotsPolicy, productToken, ROBOTS_MAX_BYTES } from './robots.js';
export { binaryReason, extensionRejection, judgeContentType, mimeEssence } from './type-gate.js';
export type { UndiciFetcherOptions } from './undici-fetcher.js';
export { createUndiciFetcher, DEFAULT_USER_AGENT } from './undici-fetcher.js';
export { invalidUrlReason, MAX_URL_LENGTH, parseFetchableUrl } from './url-check.js';
