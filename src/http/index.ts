// websift/http: HTTP bindings of the engine.

export type { RequestInfo } from './exchange.js';
export type { FetchHandler } from './fetch-handler.js';
export { createFetchHandler } from './fetch-handler.js';
export { BodyAlreadyReadError, MethodNotAllowedError, NotFoundError, PayloadTooLargeError, RequestTimeoutError } from './http-errors.js';
export type { NodeHandler } from './node-handler.js';
export { createNodeHandler } from './node-handler.js';
export { openapi } from './openapi.js';
export type { FetchHandlerOptions } from './options.js';
export { DEFAULT_DEPRECATION_LINK, DEFAULT_MAX_BODY_BYTES, DEPRECATION_DATE } from './options.js';
