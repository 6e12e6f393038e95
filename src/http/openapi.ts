// The OpenAPI 3.1 description of the HTTP API. docs/openapi.json is this object (`websift openapi`
// prints it); tests validate real handler responses against it so the two cannot drift.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const errorReply = (description: string, schema = ref('Error'), headers?: object) => ({
  description,
  ...(headers ? { headers } : {}),
  ...json(schema),
});

const commonErrors = {
  '400': errorReply('Invalid request: the body lists every problem by field'),
  '401': errorReply('Missing, unknown or revoked API key', ref('Error'), {
    'WWW-Authenticate': { schema: { const: 'Bearer' } },
  }),
  '402': errorReply('Not enough credits for the worst case of the request; nothing was charged', ref('InsufficientCreditsError')),
  '413': errorReply('Request body larger than the limit (64 KiB by default)'),
  '429': errorReply('Rate limit exceeded', ref('RateLimitError'), {
    'Retry-After': { schema: int, description: 'Seconds to wait' },
    'RateLimit-Policy': { schema: str, example: '"default";q=20;w=1' },
    RateLimit: { schema: str, example: '"default";r=0;t=1' },
  }),
  '500': errorReply('Unexpected failure; the body carries no detail'),
};

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

/** 409: the key's first use is still running. */
const inProgressReply = errorReply('A request with this Idempotency-Key is still running; retry shortly (retryable, nothing charged)');

const deprecationHeaders = {
  Deprecation: { description: 'Sent only when `engine` or `engines` was given', schema: { const: '@1767225600' } },
  Link: { description: 'Sent with Deprecation: `<docs>; rel="deprecation"`', schema: str },
};

const searchParameters = [
  { name: 'q', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 2000 } },
  { name: 'include_content', in: 'query', schema: { type: 'string', enum: ['true', 'false', '1', '0'] } },
  { name: 'content_results', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10, default: 5 } },
  { name: 'engine', in: 'query', deprecated: true, description: 'Ignored', schema: str },
  { name: 'engines', in: 'query', deprecated: true, description: 'Ignored', schema: str },
  idempotencyKeyParameter,
];

const searchReplies = {
  '200': {
    description: 'Results (status success) or an empty answer (status no_results)',
    headers: { ...deprecationHeaders, ...replayedHeader },
    ...json({ oneOf: [ref('SearchResponse'), ref('EmptySearchResponse')] }),
  },
  ...commonErrors,
  '409': inProgressReply,
  '503': errorReply('The search could not be completed after automatic retries; never charged', ref('SearchError')),
};

const errorMetadata = {
  type: 'object',
  required: ['status', 'response_time', 'timestamp'],
  additionalProperties: false,
  properties: { status: { const: 'error' }, response_time: int, timestamp },
};

const errorProperties = {
  status: { const: 'error' },
  error: str,
  code: str,
  retryable: bool,
  metadata: errorMetadata,
  problems: {
    type: 'array',
    items: { type: 'object', required: ['field', 'message'], properties: { field: str, message: str } },
  },
};
const errorRequired = ['status', 'error', 'code', 'retryable', 'metadata'];

const searchMetadata = {
  type: 'object',
  required: ['number_of_results', 'credits_used', 'from_cache', 'status', 'response_time', 'timestamp'],
  additionalProperties: false,
  properties: {
    number_of_results: int,
    credits_used: int,
    from_cache: bool,
    status: { enum: ['success', 'no_results'] },
    response_time: { type: 'integer', description: 'Milliseconds' },
    timestamp,
    content_requested: int,
    content_delivered: int,
    no_results_verified: bool,
    charged: bool,
    message: str,
  },
};

const schemas = {
  SearchRequest: {
    type: 'object',
    required: ['q'],
    properties: {
      q: { type: 'string', minLength: 1, maxLength: 2000 },
      include_content: { type: 'boolean', default: false },
      content_results: { type: 'integer', minimum: 1, maximum: 10, default: 5 },
      engine: { deprecated: true, description: 'Ignored; answers carry a Deprecation header' },
      engines: { deprecated: true, description: 'Ignored; answers carry a Deprecation header' },
    },
  },
  SearchResult: {
    type: 'object',
    required: ['title', 'url', 'snippet', 'position', 'engine'],
    additionalProperties: false,
    properties: {
      title: str,
      url: { type: 'string', format: 'uri' },
      snippet: str,
      position: { type: 'integer', minimum: 1 },
      engine: { const: 'auto' },
      content: { type: 'string', description: 'Markdown of the page; only with include_content, on success' },
      content_error: {
        enum: ['blocked', 'robots_disallowed', 'timeout', 'http', 'unsupported_content_type', 'too_large', 'network', 'empty'],
      },
    },
  },
  SearchResponse: {
    type: 'object',
    required: ['id', 'query', 'engines', 'results', 'metadata'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', format: 'uuid' },
      query: str,
      engines: { type: 'array', items: { const: 'auto' } },
      results: { type: 'array', items: ref('SearchResult') },
      metadata: searchMetadata,
    },
  },
  EmptySearchResponse: {
    type: 'object',
    required: ['query', 'results', 'message', 'metadata'],
    additionalProperties: false,
    properties: {
      query: str,
      results: { type: 'array', maxItems: 0 },
      message: str,
      metadata: { ...searchMetadata, required: [...searchMetadata.required, 'no_results_verified', 'charged', 'message'] },
    },
  },
  SearchError: {
    type: 'object',
    required: ['status', 'error', 'retryable', 'metadata'],
    additionalProperties: false,
    properties: { status: { const: 'error' }, error: str, retryable: { const: true }, metadata: errorMetadata },
  },
  Error: { type: 'object', required: errorRequired, additionalProperties: false, properties: errorProperties },
  InsufficientCreditsError: {
    type: 'object',
    required: [...errorRequired, 'credits_required', 'credits_available'],
    additionalProperties: false,
    properties: { ...errorProperties, credits_required: int, credits_available: int },
  },
  RateLimitError: {
    type: 'object',
    required: [...errorRequired, 'retry_after'],
    additionalProperties: false,
    properties: { ...errorProperties, retry_after: { type: 'integer', minimum: 1 } },
  },
  ExtractRequest: {
    type: 'object',
    required: ['urls'],
    properties: {
      urls: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', format: 'uri', maxLength: 2048 } },
      format: { enum: ['markdown', 'html'], default: 'markdown' },
      stealth: { type: 'boolean', default: false, description: 'Unavailable (400 stealth_unavailable) from 2026-11-01' },
    },
  },
  ExtractResult: {
    type: 'object',
    required: ['url', 'success', 'status_code'],
    additionalProperties: false,
    properties: {
      url: str,
      success: bool,
      markdown: str,
      html: str,
      status_code: int,
      error: str,
      error_type: {
        enum: ['http', 'unsupported_content_type', 'too_large', 'robots_disallowed', 'blocked_address', 'timeout',
          'network', 'too_many_redirects', 'invalid_url'],
      },
      stealth: { const: true },
    },
  },
  ExtractResponse: {
    type: 'object',
    required: ['success', 'results', 'metadata'],
    additionalProperties: false,
    properties: {
      success: bool,
      results: { type: 'array', items: ref('ExtractResult') },
      metadata: {
        type: 'object',
        required: ['total_urls', 'processed_urls', 'successful_crawls', 'failed_crawls', 'credits_used', 'response_time', 'timestamp'],
        additionalProperties: false,
        properties: {
          total_urls: int,
          processed_urls: int,
          successful_crawls: int,
          failed_crawls: int,
          credits_used: int,
          response_time: int,
          timestamp,
          stealth: { const: true },
          cached_free: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
  UsageResponse: {
    type: 'object',
    required: ['organization', 'credits', 'requests', 'timestamp'],
    additionalProperties: false,
    properties: {
      organization: str,
      credits: { type: 'object', required: ['balance', 'used'], additionalProperties: false, properties: { balance: int, used: int } },
      requests: {
        type: 'object',
        required: ['search', 'extract', 'total', 'free'],
        additionalProperties: false,
        properties: { search: int, extract: int, total: int, free: int },
      },
      timestamp,
    },
  },
};

/** The OpenAPI 3.1 description of the HTTP API (the same document as docs/openapi.json and `websift openapi`). */
export const openapi = {
  openapi: '3.1.0',
  info: {
    title: 'websift',
    version: '0.1.0',
    description: 'Web search and page extraction, paid in credits per organization. See docs/http.md.',
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    },
    schemas,
  },
  security: [{ bearer: [] }],
  paths: {
    '/api/search': {
      get: { operationId: 'searchGet', security: [{ bearer: [] }, { apiKeyHeader: [] }], parameters: searchParameters, responses: searchReplies },
      post: {
        operationId: 'search',
        security: [{ bearer: [] }, { apiKeyHeader: [] }],
        parameters: [idempotencyKeyParameter],
        requestBody: { required: true, ...json(ref('SearchRequest')) },
        responses: searchReplies,
      },
    },
    '/api/crawl': {
      post: {
        operationId: 'extract',
        parameters: [idempotencyKeyParameter],
        requestBody: { required: true, ...json(ref('ExtractRequest')) },
        responses: {
          '200': {
            description: 'One result per URL; per-URL failures have success false',
            headers: replayedHeader,
            ...json(ref('ExtractResponse')),
          },
          ...commonErrors,
          '409': inProgressReply,
          '504': errorReply('The request deadline passed; nothing was charged'),
        },
      },
    },
    '/api/usage': {
      get: {
        operationId: 'usage',
        description: 'Free of charge; bearer token only',
        responses: {
          '200': { description: 'Credit balance and request counts', ...json(ref('UsageResponse')) },
          '401': commonErrors['401'],
          '429': commonErrors['429'],
          '500': commonErrors['500'],
        },
      },
    },
  },
} as const;
