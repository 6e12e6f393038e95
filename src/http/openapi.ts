// The OpenAPI 3.1 description of the HTTP API: the operations written here, every body schema generated
// from src/schema (zod). docs/openapi.json is this object (`npm run openapi` writes it, `websift openapi`
// prints it); tests validate real handler responses against the same schemas.

import { z } from 'zod';
import { requestSchemas, responseSchemas } from '../schema/index.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
/** On every reply (request-id.ts): the caller's X-Request-Id when sane, else a new one; error bodies name it as `request_id`. */
const requestIdHeader = {
  'X-Request-Id': {
    description: "The request's id: the caller's X-Request-Id when sane, else generated",
    schema: { type: 'string', minLength: 1, maxLength: 128 },
  },
};
const errorReply = (description: string, schema = ref('Error'), headers?: object) => ({
  description,
  headers: { ...requestIdHeader, ...headers },
  ...json(schema),
});

/** The headers of a 429 (responses.ts, errorReply); the example is the engine's default policy, 20 per 2 s. */
const rateLimitHeaders = {
  'Retry-After': { schema: int, description: 'Seconds to wait' },
  'RateLimit-Policy': { schema: str, example: '"default";q=20;w=2' },
  RateLimit: { schema: str, example: '"default";r=0;t=1' },
};

/** Replies shared by the operations, by component name (components.responses). */
const sharedReplies = {
  InvalidRequest: errorReply('Invalid request: the body lists every problem by field'),
  Unauthorized: errorReply('Missing, unknown or revoked API key', ref('Error'), { 'WWW-Authenticate': { schema: { const: 'Bearer' } } }),
  InsufficientCredits: errorReply(
    'Not enough credits for the worst case of the request; nothing was charged',
    ref('InsufficientCreditsError'),
  ),
  NotFound: errorReply("No endpoint at this path (`not_found`): check the server's basePath"),
  MethodNotAllowed: errorReply('The method is not served on this path (`method_not_allowed`; HEAD and OPTIONS never are)', ref('Error'), {
    Allow: { schema: str, description: 'The methods the path serves, e.g. `GET, POST`' },
  }),
  RequestTimeout: errorReply('The request body did not arrive within the limit (30 s by default); retryable, nothing charged'),
  PayloadTooLarge: errorReply('Request body larger than the limit (64 KiB by default)', ref('PayloadTooLargeError')),
  InProgress: errorReply('A request with this Idempotency-Key is still running; retry shortly (retryable, nothing charged)'),
  RateLimited: errorReply('Rate limit exceeded', ref('RateLimitError'), rateLimitHeaders),
  InternalError: errorReply('Unexpected failure (`internal_error`); the body carries no detail of an exception'),
  StorageUnavailable: errorReply(
    'The books (`ledger_unavailable`) or a shared rate limiter (`rate_limiter_unavailable`) could not answer; retryable, nothing charged',
  ),
  CrawlStorageUnavailable: errorReply(
    'The books (`ledger_unavailable`), a shared rate limiter (`rate_limiter_unavailable`) or the shared store of repeat windows ' +
      "(`cache_unavailable`: a URL's window could not be read, or written before the charge) could not answer; retryable, nothing " +
      'charged (a retry within 5 minutes of the charged request is the free repeat)',
  ),
};
const reply = (name: keyof typeof sharedReplies) => ({ $ref: `#/components/responses/${name}` });

/** Header parameter of the charged operations (search, crawl): docs/http.md, "Idempotency keys". */
const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A retry with the same key and the same parameters within 24 h answers the first answer again, charged and counted once ' +
    '(with Idempotent-Replayed: true); the same key with other parameters → 400',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

const replayedHeader = {
  'Idempotent-Replayed': { description: 'Sent only on the stored first answer of an Idempotency-Key', schema: { const: 'true' } },
};

const deprecationHeaders = {
  Deprecation: { description: 'Sent only when `engine` or `engines` was given', schema: { const: '@1767225600' } },
  Link: { description: 'Sent with Deprecation: `<docs>; rel="deprecation"`', schema: str },
};

const searchParameters = [
  { name: 'q', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 2000 } },
  { name: 'include_content', in: 'query', schema: { type: 'string', enum: ['true', 'false', '1', '0'] } },
  { name: 'content_results', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10, default: 5 } },
  {
    name: 'max_chars',
    in: 'query',
    description: "With include_content: at most this many characters of content over all pages, each page's passages picked by q",
    schema: { type: 'integer', minimum: 1 },
  },
  { name: 'engine', in: 'query', deprecated: true, description: 'Ignored', schema: str },
  { name: 'engines', in: 'query', deprecated: true, description: 'Ignored', schema: str },
  idempotencyKeyParameter,
];

/**
 * A search reply that may carry `Deprecation` and `Link`: every status answered once the parameters are
 * known (docs/http.md, "Deprecated search parameters"); a shared reply is copied to add them.
 */
const withDeprecation = (name: keyof typeof sharedReplies) => {
  const { headers, ...rest } = sharedReplies[name] as { headers?: object; description: string };
  return { ...rest, headers: { ...headers, ...deprecationHeaders } };
};

/** The search replies; `body: false` for GET, whose body is never read (no 408 or 413). */
const searchReplies = (body: boolean) => ({
  '200': {
    description: 'Results (status success) or an empty answer (status no_results)',
    headers: { ...requestIdHeader, ...deprecationHeaders, ...replayedHeader },
    ...json({ oneOf: [ref('SearchResponse'), ref('EmptySearchResponse')] }),
  },
  '400': withDeprecation('InvalidRequest'),
  '401': withDeprecation('Unauthorized'),
  '402': withDeprecation('InsufficientCredits'),
  // Never with the deprecation headers: answered before the parameters are known.
  '404': reply('NotFound'),
  '405': reply('MethodNotAllowed'),
  ...(body ? { '408': reply('RequestTimeout'), '413': reply('PayloadTooLarge') } : {}),
  '409': withDeprecation('InProgress'),
  '429': withDeprecation('RateLimited'),
  '500': withDeprecation('InternalError'),
  '503': {
    description:
      "The search could not be completed after automatic retries (no `code`: the public API's search error, never charged), " +
      'or the books or a shared rate limiter could not answer (`ledger_unavailable`, `rate_limiter_unavailable`; nothing charged)',
    headers: { ...requestIdHeader, ...deprecationHeaders },
    ...json({ oneOf: [ref('SearchError'), ref('Error')] }),
  },
});

/** zod's JSON Schema as documents show it (the OpenAPI document, the MCP tools' schemas). */
export function tidyJsonSchema({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  // A documented format says it all (zod adds its long regex); ±2^53-1 are zod's int() bounds, not ours.
  if (jsonSchema['format'] !== undefined) delete jsonSchema['pattern'];
  if (jsonSchema['minimum'] === Number.MIN_SAFE_INTEGER) delete jsonSchema['minimum'];
  if (jsonSchema['maximum'] === Number.MAX_SAFE_INTEGER) delete jsonSchema['maximum'];
}

/** The components of one io side ('input': requests as sent, 'output': responses as written). */
function componentSchemas(bodies: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, object> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(bodies)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `#/components/schemas/${id}`,
    override: tidyJsonSchema,
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]));
}

const schemas = componentSchemas(responseSchemas, 'output');

/**
 * Request bodies are request-body components, not schema components: openapi-typescript (default options)
 * makes a schema component's fields that have a `default` required, so `{ q }` alone would not compile;
 * under requestBodies they stay optional, and the defaults stay in the document.
 */
const requestBodies = Object.fromEntries(
  Object.entries(componentSchemas(requestSchemas, 'input')).map(([id, schema]) => [id, { required: true, ...json(schema) }]),
);
const requestBody = (name: keyof typeof requestSchemas) => ({ $ref: `#/components/requestBodies/${name}` });

/** The OpenAPI 3.1 description of the HTTP API (the same document as docs/openapi.json and `websift openapi`). */
export const openapi = {
  openapi: '3.1.0',
  info: {
    title: 'websift',
    version: '0.1.0',
    description: 'Web search and page extraction, paid in credits per organization. See docs/http.md.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: 'http://127.0.0.1:8080', description: '`websift serve` (default address); mount it anywhere with basePath' }],
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    },
    schemas,
    requestBodies,
    responses: sharedReplies,
  },
  security: [{ bearer: [] }],
  paths: {
    '/api/search': {
      get: {
        operationId: 'searchGet',
        summary: 'Search the web (query string)',
        security: [{ bearer: [] }, { apiKeyHeader: [] }],
        parameters: searchParameters,
        responses: searchReplies(false),
      },
      post: {
        operationId: 'search',
        summary: 'Search the web (JSON body)',
        security: [{ bearer: [] }, { apiKeyHeader: [] }],
        parameters: [idempotencyKeyParameter],
        requestBody: requestBody('SearchRequest'),
        responses: searchReplies(true),
      },
    },
    '/api/crawl': {
      post: {
        operationId: 'extract',
        summary: 'Extract pages as Markdown or HTML',
        parameters: [idempotencyKeyParameter],
        requestBody: requestBody('ExtractRequest'),
        responses: {
          '200': {
            description: 'One result per URL; per-URL failures have success false',
            headers: { ...requestIdHeader, ...replayedHeader },
            ...json(ref('ExtractResponse')),
          },
          '400': reply('InvalidRequest'),
          '401': reply('Unauthorized'),
          '402': reply('InsufficientCredits'),
          '404': reply('NotFound'),
          '405': reply('MethodNotAllowed'),
          '408': reply('RequestTimeout'),
          '409': reply('InProgress'),
          '413': reply('PayloadTooLarge'),
          '429': reply('RateLimited'),
          '500': reply('InternalError'),
          '503': reply('CrawlStorageUnavailable'),
          '504': errorReply('The request deadline passed (`timeout`); nothing was charged'),
        },
      },
    },
    '/api/usage': {
      get: {
        operationId: 'usage',
        summary: 'Credit balance and request counts',
        description: 'Free of charge; bearer token only',
        responses: {
          '200': { description: 'Credit balance and request counts', headers: requestIdHeader, ...json(ref('UsageResponse')) },
          '401': reply('Unauthorized'),
          '404': reply('NotFound'),
          '405': reply('MethodNotAllowed'),
          '429': reply('RateLimited'),
          '500': reply('InternalError'),
          '503': reply('StorageUnavailable'),
        },
      },
    },
  },
} as const;
