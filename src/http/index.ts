// websift/http: HTTP bindings of the engine.
export { createFetchHandler } from './fetch-handler.js';
export type { FetchHandler } from './fetch-handler.js';
export { createNodeHandler } from './node-handler.js';
export type { NodeHandler } from './node-handler.js';
export type { FetchHandlerOptions } from './options.js';
export type { RequestInfo } from './exchange.js';
export { DEFAULT_MAX_BODY_BYTES, DEPRECATION_DATE, DEFAULT_DEPRECATION_LINK } from './options.js';
export { NotFoundError, MethodNotAllowedError, PayloadTooLargeError, RequestTimeoutError, BodyAlreadyReadError } from './http-errors.js';
export { openapi } from './openapi.js';
