// The HTTP API itself, shared by both bindings: routing, auth, parameter parsing and headers. Every
// decision about results and billing stays in the engine.

import { channels, HttpTrace, type HttpTraceContext, REQUEST_TRACE, type TracedCallContext, traced } from '../channels.js';
import { UnauthorizedError } from '../errors.js';
import type { CallContext, Engine, ExtractParams, SearchParams } from '../types/index.js';
import { apiKeyOf } from './auth.js';
import type { ApiReply, ApiRequest } from './exchange.js';
import { HEALTH_PATHS, healthReply } from './health-routes.js';
import { MethodNotAllowedError, NotFoundError } from './http-errors.js';
import { asHeaderProblem, idempotencyKeyOf, replayHeaders } from './idempotency-header.js';
import { DEPRECATION_DATE, type FetchHandlerOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { type QueryValues, queryValues, searchParamsFromQuery, usesDeprecatedEngine } from './query-params.js';
import { readJsonObject, refuseDeclaredOversize } from './request-body.js';
import { requestIdOf } from './request-id.js';
import { type RequestUrl, requestUrlOf, strictUrl } from './request-url.js';
import { answerReply, clientGoneReply, errorReply } from './responses.js';

export type ApiHandler = (request: ApiRequest) => Promise<ApiReply>;

interface RequestState {
  url: RequestUrl;
  /** A GET search's query values, read before auth (for the deprecation headers) and again by the route. */
  query: QueryValues | undefined;
  deprecated: boolean;
  /** The request's websift:http context, when someone listens. */
  trace: HttpTraceContext | undefined;
}

interface Route {
  methods: readonly string[];
  /** Whether `x-api-key` is accepted besides the bearer token (search only, as the spec says). */
  apiKeyHeader: boolean;
  run(engine: Engine, request: ApiRequest, organization: string, state: RequestState, options: ResolvedOptions): Promise<unknown>;
}

const ROUTES: Record<string, Route> = {
  '/api/search': {
    methods: ['GET', 'POST'],
    apiKeyHeader: true,
    // Not async: a GET hands on the engine's own promise (an async wrapper's promise, and the turns it
    // takes to adopt the engine's, cost every search). handle() awaits it, so a throw here is a rejection.
    run(engine, request, organization, state, options) {
      if (request.method === 'GET') {
        // The query was read before auth (answer), and its deprecated names marked then.
        if (state.query === undefined)
          return search(engine, searchParamsFromQuery(queryValues(state.url.query)), request, organization, state);
        return engine.search(searchParamsFromQuery(state.query) as unknown as SearchParams, callContext(organization, request, state));
      }
      return readJsonObject(request, options).then((params) => search(engine, params, request, organization, state));
    },
  },
  '/api/crawl': {
    methods: ['POST'],
    apiKeyHeader: false,
    async run(engine, request, organization, state, options) {
      const body = await readJsonObject(request, options);
      return engine.extract(body as unknown as ExtractParams, callContext(organization, request, state));
    },
  },
  '/api/usage': {
    methods: ['GET'],
    apiKeyHeader: false,
    run: (engine, request, organization) => engine.usage(callContext(organization, request)),
  },
};

function search(engine: Engine, params: Record<string, unknown>, request: ApiRequest, organization: string, state: RequestState) {
  if (usesDeprecatedEngine(params)) state.deprecated = true;
  // The wire JSON goes to the engine as-is: it validates it (every problem in one 400).
  return engine.search(params as unknown as SearchParams, callContext(organization, request, state));
}

/**
 * The engine call is cancelled when the client goes away; charged calls (given the request's `state`)
 * carry the Idempotency-Key header and the request's websift:http context, so the call's events name
 * their request (src/channels.ts).
 */
function callContext(organization: string, request: ApiRequest, charged?: RequestState): CallContext {
  const ctx: CallContext & TracedCallContext = request.signal ? { organization, signal: request.signal } : { organization };
  const key = charged ? idempotencyKeyOf(request) : undefined;
  if (key !== undefined) ctx.idempotencyKey = key;
  if (charged?.trace) ctx[REQUEST_TRACE] = charged.trace;
  return ctx;
}

export function createApiHandler(engine: Engine, options: FetchHandlerOptions = {}): ApiHandler {
  const resolved = resolveOptions(options);
  return (request) => {
    const requestId = requestIdOf(request.headers.get('x-request-id'));
    const url = requestUrlOf(request); // once, for the websift:http context and the answer
    // Nobody listens (the usual case): straight to the answer, without traced()'s two closures.
    if (!channels.http.hasSubscribers) return answer(engine, request, url, requestId, resolved, undefined);
    return traced(
      channels.http,
      () => httpContext(request, url, requestId, resolved),
      // answer's own promise, traced or not: the status is set by finishReply, not by a wrapper's await.
      (trace) => answer(engine, request, url, requestId, resolved, trace),
      finishReply,
    );
  };
}

/** The request's status on its websift:http context, before its end is published. */
function finishReply(trace: HttpTraceContext, failed: boolean, reply: unknown): void {
  if (!failed) trace.status = (reply as ApiReply).status;
}

/**
 * The request's reply (never a rejection: every error is answered). One async function from the route
 * to the reply: each async layer between them was a promise and a turn more per request.
 */
async function answer(
  engine: Engine,
  request: ApiRequest,
  url: RequestUrl | undefined,
  requestId: string,
  options: ResolvedOptions,
  trace: HttpTraceContext | undefined,
): Promise<ApiReply> {
  const startedAt = options.clock.now();
  let reply: ApiReply;
  let state: RequestState | undefined;
  try {
    state = { url: url ?? strictUrl(request.url), query: undefined, deprecated: false, trace };
    const { pathname } = state.url;
    const health = options.health ? findHealthRoute(pathname, options.basePath) : undefined;
    if (health) {
      if (request.method !== 'GET' && request.method !== 'HEAD') throw new MethodNotAllowedError(request.method, pathname, ['GET', 'HEAD']);
      reply = await healthReply(engine, health);
    } else {
      const route = findRoute(pathname, options.basePath);
      if (!route) throw new NotFoundError(pathname);
      if (route.apiKeyHeader && request.method === 'GET') {
        // Known before auth, so even a 401 to a GET that names `engine` carries the header.
        state.query = queryValues(state.url.query);
        if (state.query.engine !== undefined || state.query.engines !== undefined) state.deprecated = true;
      }
      if (!route.methods.includes(request.method)) throw new MethodNotAllowedError(request.method, pathname, route.methods);

      if (request.method === 'POST') refuseDeclaredOversize(request, options.maxBodyBytes);
      const key = apiKeyOf(request, route.apiKeyHeader);
      const identity = key === null ? null : await engine.authenticate(key);
      if (!identity)
        throw new UnauthorizedError(key === null ? 'Missing API key: send Authorization: Bearer <key>' : 'Invalid or revoked API key');
      if (trace) trace.organization = identity.organization;

      const body = await route.run(engine, request, identity.organization, state, options);
      const made = answerReply(200, body, replayHeaders(body));
      reply = made instanceof Promise ? await made : made;
    }
  } catch (error) {
    // The client is gone: nobody reads the reply, and a cancelled call is no server fault to report.
    if (request.signal?.aborted) return withRequestId(clientGoneReply(), requestId);
    reply = errorReply(asHeaderProblem(error), {
      request,
      requestId,
      startedAt,
      now: () => options.clock.now(),
      onError: options.onError,
    });
  }
  if (state?.deprecated) {
    reply.headers['deprecation'] = DEPRECATION_DATE;
    reply.headers['link'] = `<${options.deprecationLink}>; rel="deprecation"`;
  }
  return withRequestId(reply, requestId);
}

/** Every reply names its request (X-Request-Id). */
function withRequestId(reply: ApiReply, requestId: string): ApiReply {
  reply.headers['x-request-id'] = requestId;
  return reply;
}

/** The websift:http context: made only when someone listens. */
function httpContext(request: ApiRequest, url: RequestUrl | undefined, requestId: string, options: ResolvedOptions): HttpTraceContext {
  const path = url ? url.pathname : '/';
  const rest = path.startsWith(options.basePath) ? withoutTrailingSlashes(path.slice(options.basePath.length)) : '';
  const known = Object.hasOwn(ROUTES, rest) || (options.health && (HEALTH_PATHS as readonly string[]).includes(rest));
  const traceparent = request.headers.get('traceparent') ?? undefined;
  const tracestate = request.headers.get('tracestate') ?? undefined;
  return new HttpTrace(requestId, request.method, path, known ? rest : 'other', traceparent, tracestate);
}

function findHealthRoute(pathname: string, basePath: string): (typeof HEALTH_PATHS)[number] | undefined {
  if (!pathname.startsWith(basePath)) return undefined;
  const rest = pathname.slice(basePath.length);
  return HEALTH_PATHS.find((path) => path === rest);
}

/** The routes by path, for findRoute: one Map lookup (ROUTES as an object took `hasOwn` and a keyed read). */
const ROUTE_TABLE: ReadonlyMap<string, Route> = new Map(Object.entries(ROUTES));

function findRoute(pathname: string, basePath: string): Route | undefined {
  if (!pathname.startsWith(basePath)) return undefined;
  return ROUTE_TABLE.get(withoutTrailingSlashes(basePath === '' ? pathname : pathname.slice(basePath.length)));
}

/** `path` without its trailing slashes (the usual path has none: no regular expression run for it). */
const withoutTrailingSlashes = (path: string): string => (path.endsWith('/') ? path.replace(/\/+$/, '') : path);
