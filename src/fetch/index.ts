// The fetch layer: address policy, the undici Fetcher, robots.txt, type gating, charsets, the page loader.
export { blockedReason, checkUrlHost, isIpLiteral } from './address-policy.js';
export { createUndiciFetcher, DEFAULT_USER_AGENT } from './undici-fetcher.js';
export type { UndiciFetcherOptions } from './undici-fetcher.js';
export type { LookupFunction } from './guarded-connector.js';
export { createPageLoader, statusLine, DEFAULT_MAX_BYTES, DEFAULT_PAGE_TIMEOUT_MS } from './load-page.js';
export type { LoadedDocument, PageLoader, PageLoaderOptions } from './load-page.js';
export { createRobotsPolicy, productToken, ROBOTS_MAX_BYTES } from './robots.js';
export type { RobotsPolicy, RobotsOptions } from './robots.js';
export { extensionRejection, judgeContentType, binaryReason, mimeEssence } from './type-gate.js';
export { decodeBody } from './charset.js';
export { invalidUrlReason, parseFetchableUrl, MAX_URL_LENGTH } from './url-check.js';
export { MAX_REDIRECTS } from './redirects.js';
