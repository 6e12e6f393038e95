// The HTTP API itself, shared by both bindings: routing, auth, parameter parsing and headers. Every
// decision about results and billing stays in the engine.

import {
  channels,
  HttpTrace,
  type HttpTraceContext,
  hasStores,
  publishSettled,
  REQUEST_TRACE,
  stampRequestStart,
  type TracedCallContext,
  traced,
} from '../channels.js';
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

/**
 * Where a request's websift:http trace is, when the handler publishes it itself (RequestState.phase):
 * UNPUBLISHED (nobody listens, or tracePromise publishes it), STARTED (start published, `end` not yet),
 * ENDED (end published: answer() publishes its settlement as it settles), or settled before `end` was
 * published (an answer before its first await: the handler publishes it after `end`).
 */
const UNPUBLISHED = 0;
const STARTED = 1;
const ENDED = 2;
const SETTLED_EARLY = 3;
const FAILED_EARLY = 4;

/** What the handler knows of a request as it goes (made once per request, by the handler). */
class RequestState {
  /** A GET search's query values, read before auth (for the deprecation headers) and again by the route. */
  query: QueryValues | undefined = undefined;
  deprecated = false;
  /** Where its websift:http trace is (UNPUBLISHED…FAILED_EARLY), and the reply or error of a settlement before `end`. */
  phase = UNPUBLISHED;
  value: unknown = undefined;
  constructor(
    /** The request's URL, or undefined for one that does not parse (answered as an error). */
    public url: RequestUrl | undefined,
    /** What the path names (the route, the health check, or neither), looked up once for the answer and the context. */
    readonly endpoint: Endpoint,
    readonly trace: HttpTrace | undefined,
  ) {}
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
        // Its query was read before auth (answer() does for every GET of an apiKeyHeader route), and its
        // deprecated names marked then.
        return engine.search(searchParamsFromQuery(state.query!) as unknown as SearchParams, callContext(organization, request, state));
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
  const trace = charged?.trace;
  const signal = request.signal;
  // The request's trace in the literal, not added after it (a map transition and a property array per
  // traced request).
  const ctx: CallContext & TracedCallContext = trace
    ? signal
      ? { organization, signal, [REQUEST_TRACE]: trace }
      : { organization, [REQUEST_TRACE]: trace }
    : signal
      ? { organization, signal }
      : { organization };
  const key = charged ? idempotencyKeyOf(request) : undefined;
  if (key !== undefined) ctx.idempotencyKey = key;
  return ctx;
}

export function createApiHandler(engine: Engine, options: FetchHandlerOptions = {}): ApiHandler {
  const resolved = resolveOptions(options);
  return (request) => {
    const requestId = requestIdOf(request.headers.get('x-request-id'));
    const url = requestUrlOf(request); // once, for the websift:http context and the answer
    const endpoint = url ? endpointOf(url.pathname, resolved) : OTHER;
    // Nobody listens (the usual case): straight to the answer.
    if (!channels.http.hasSubscribers) return answer(engine, request, new RequestState(url, endpoint, undefined), requestId, resolved);
    const trace = new HttpTrace(
      requestId,
      request.method,
      url ? url.pathname : '/',
      endpoint.name,
      request.headers.get('traceparent') ?? undefined,
      request.headers.get('tracestate') ?? undefined,
    );
    const state = new RequestState(url, endpoint, trace);
    const channel = channels.http;
    // A bound store (an APM's AsyncLocalStorage) is entered by tracePromise, around the work (traced()).
    if (hasStores(channel))
      return traced(
        channel,
        () => trace,
        () => {
          stampRequestStart(trace);
          return answer(engine, request, state, requestId, resolved);
        },
        finishReply,
      );
    // traced()'s events, published here and by answer() as it settles: no closure, reaction nor promise of
    // the trace's per request (answer is async: it never throws, its rejection is published by itself).
    state.phase = STARTED;
    if (channel.start.hasSubscribers) channel.start.publish(trace);
    stampRequestStart(trace); // after start: the access log's listener notes its own, earlier start there
    const reply = answer(engine, request, state, requestId, resolved);
    const early = state.phase;
    state.phase = ENDED;
    if (channel.end.hasSubscribers) channel.end.publish(trace);
    // Answered before its first await: its settlement is published now, after `end`.
    if (early !== STARTED) publishSettled(channel, trace, early === FAILED_EARLY, state.value, finishReply);
    return reply;
  };
}

/** The request's status on its websift:http context, before its end is published. */
function finishReply(trace: HttpTraceContext, failed: boolean, reply: unknown): void {
  if (!failed) trace.status = (reply as ApiReply).status;
}

/**
 * answer()'s settlement on the request's websift:http context, published as traced() would (its status,
 * `result` or `error`, then error, asyncStart, asyncEnd). One that comes before the handler published `end`
 * (an answer before the first await) is kept and published by the handler after `end`: traced()'s order.
 */
function settleTrace(state: RequestState, failed: boolean, value: unknown): void {
  if (state.phase === ENDED) publishSettled(channels.http, state.trace!, failed, value, finishReply);
  else {
    state.phase = failed ? FAILED_EARLY : SETTLED_EARLY;
    state.value = value;
  }
}

/**
 * The request's reply (never a rejection: every error is answered). One async function from the route
 * to the reply: each async layer between them was a promise and a turn more per request. Of a trace the
 * handler publishes (`state.phase`), it publishes the settlement itself (settleTrace) before its promise
 * settles, hence before the caller's await resumes, as traced()'s reaction did.
 */
async function answer(
  engine: Engine,
  request: ApiRequest,
  state: RequestState,
  requestId: string,
  options: ResolvedOptions,
): Promise<ApiReply> {
  let reply: ApiReply;
  let gone = false;
  try {
    const startedAt = options.clock.now();
    try {
      const url = state.url ?? (state.url = strictUrl(request.url));
      const { pathname } = url;
      const { route, health } = state.endpoint;
      if (health !== undefined) {
        if (request.method !== 'GET' && request.method !== 'HEAD')
          throw new MethodNotAllowedError(request.method, pathname, ['GET', 'HEAD']);
        reply = await healthReply(engine, health);
      } else {
        if (!route) throw new NotFoundError(pathname);
        if (route.apiKeyHeader && request.method === 'GET') {
          // Known before auth, so even a 401 to a GET that names `engine` carries the header.
          state.query = queryValues(url.query);
          if (state.query.engine !== undefined || state.query.engines !== undefined) state.deprecated = true;
        }
        if (!route.methods.includes(request.method)) throw new MethodNotAllowedError(request.method, pathname, route.methods);

        if (request.method === 'POST') refuseDeclaredOversize(request, options.maxBodyBytes);
        const key = apiKeyOf(request, route.apiKeyHeader);
        const identity = key === null ? null : await engine.authenticate(key);
        if (!identity)
          throw new UnauthorizedError(key === null ? 'Missing API key: send Authorization: Bearer <key>' : 'Invalid or revoked API key');
        if (state.trace) state.trace.organization = identity.organization;

        const body = await route.run(engine, request, identity.organization, state, options);
        const made = answerReply(200, body, replayHeaders(body));
        reply = made instanceof Promise ? await made : made;
      }
    } catch (error) {
      // The client is gone: nobody reads the reply, and a cancelled call is no server fault to report.
      gone = request.signal?.aborted === true;
      if (gone) reply = clientGoneReply();
      else
        reply = errorReply(asHeaderProblem(error), {
          request,
          requestId,
          startedAt,
          now: () => options.clock.now(),
          onError: options.onError,
        });
    }
    if (state.deprecated && !gone) {
      reply.headers['deprecation'] = DEPRECATION_DATE;
      reply.headers['link'] = `<${options.deprecationLink}>; rel="deprecation"`;
    }
    reply.headers['x-request-id'] = requestId; // every reply names its request
  } catch (error) {
    // Not expected (a failing option such as the clock or onError): the rejection is the request's error.
    if (state.phase !== UNPUBLISHED) settleTrace(state, true, error);
    throw error;
  }
  if (state.phase !== UNPUBLISHED) settleTrace(state, false, reply);
  return reply;
}

/** What a path names: the route it asks for, the health check, or neither, and its `endpoint` label. */
interface Endpoint {
  /** The websift:http context's `endpoint`: the API route (`/api/search`, `/healthz`…), or `other`. */
  readonly name: string;
  readonly route?: Route;
  readonly health?: (typeof HEALTH_PATHS)[number];
  /** A health path with trailing slashes: named by its endpoint, but not served (404). */
  readonly slashed?: Endpoint;
}

/** A path the API does not serve. */
const OTHER: Endpoint = { name: 'other' };

/** The endpoints by path under the base path (trailing slashes removed): one Map look-up per request. */
const ENDPOINTS: ReadonlyMap<string, Endpoint> = new Map<string, Endpoint>([
  ...Object.entries(ROUTES).map(([path, route]) => [path, { name: path, route }] as const),
  ...HEALTH_PATHS.map((path) => [path, { name: path, health: path, slashed: { name: path } }] as const),
]);

/**
 * What `pathname` names: a route under the base path, trailing slashes ignored; a health path (with
 * `health`) only as it is, though it names its endpoint with trailing slashes too; else OTHER.
 */
function endpointOf(pathname: string, options: ResolvedOptions): Endpoint {
  const { basePath } = options;
  if (!pathname.startsWith(basePath)) return OTHER;
  const rest = basePath === '' ? pathname : pathname.slice(basePath.length);
  const path = withoutTrailingSlashes(rest);
  const found = ENDPOINTS.get(path);
  if (found === undefined) return OTHER;
  if (found.health === undefined) return found;
  if (!options.health) return OTHER;
  return path === rest ? found : found.slashed!;
}

/** `path` without its trailing slashes (the usual path has none: no regular expression run for it). */
const withoutTrailingSlashes = (path: string): string => (path.endsWith('/') ? path.replace(/\/+$/, '') : path);
