// The tools' input and output schemas, derived from the HTTP API's own (src/schema): one description
// of the API. The input schemas only advertise: the engine validates the arguments itself, so a bad
// one gets the API's 400 (naming the argument, charging nothing) as the tool's error result, not the
// SDK's own message.

import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { tidyJsonSchema } from '../http/openapi.js';
import {
  emptySearchResponse,
  errorBody,
  extractRequest,
  extractResponse,
  insufficientCreditsBody,
  rateLimitBody,
  searchErrorBody,
  searchRequest,
  searchResponse,
  usageResponse,
} from '../schema/index.js';

/** The tools' arguments. `maxChars` is the server's default budget, shown as `max_chars`'s default. */
export function toolInputs(maxChars: number) {
  const search = searchRequest.shape;
  const extract = extractRequest.shape;
  return {
    web_search: z.object({
      query: search.q,
      include_content: search.include_content,
      content_results: search.content_results,
      max_chars: search.max_chars.meta({ default: maxChars }),
    }),
    web_extract: z.object({
      urls: extract.urls,
      format: extract.format,
      query: extract.query,
      max_chars: extract.max_chars.meta({ default: maxChars }),
      start_char: extract.start_char,
    }),
    usage: z.object({}),
  };
}

/**
 * The API's error bodies: a failed call's structuredContent. They belong to the output schema because
 * clients check structuredContent against it even on `isError` (the v1 SDK's client does).
 */
const errorBodies = [errorBody, insufficientCreditsBody, rateLimitBody] as const;

/** Each tool's structuredContent: exactly the HTTP API's body for the same call, its answer or its error. */
export const toolOutputs = {
  web_search: z.union([searchResponse, emptySearchResponse, ...errorBodies, searchErrorBody]),
  web_extract: z.union([extractResponse, ...errorBodies]),
  usage: z.union([usageResponse, ...errorBodies]),
};

/** The JSON Schema a document shows for `schema` (no `$schema`, zod's long regexes dropped). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, override: portable }) as Record<string, unknown>;
  return json;
}

/**
 * Tuples without `prefixItems` (2020-12 only): clients validate with draft-07 too (the v1 SDK's ajv),
 * where it means nothing and `items: false` refuses every item. Our tuples (`engines: ['auto']`, an
 * empty answer's `results: []`) keep their meaning as items of the listed kinds between minItems and maxItems.
 */
function portable(context: { jsonSchema: Record<string, unknown> }): void {
  tidyJsonSchema(context);
  const { jsonSchema } = context;
  const prefix = jsonSchema['prefixItems'];
  if (!Array.isArray(prefix)) return;
  delete jsonSchema['prefixItems'];
  if (prefix.length === 0) delete jsonSchema['items'];
  else jsonSchema['items'] = prefix.length === 1 ? prefix[0] : { anyOf: prefix };
  jsonSchema['maxItems'] ??= prefix.length;
}

/** Advertises `schema`'s JSON Schema and accepts any arguments: the engine is their one validator. */
export function advertisedInput(schema: z.ZodType): StandardSchemaWithJSON<Record<string, unknown>> {
  const json = jsonSchemaOf(schema, 'input');
  return {
    '~standard': {
      version: 1,
      vendor: 'websift',
      validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/** `schema` as an output schema: the SDK checks each structuredContent against it (zod), and lists its JSON Schema. */
export function checkedOutput(schema: z.ZodType): StandardSchemaWithJSON {
  const json = jsonSchemaOf(schema, 'output');
  return {
    '~standard': {
      version: 1,
      vendor: 'websift',
      validate: (value) => {
        const parsed = schema.safeParse(value);
        return parsed.success
          ? { value: parsed.data }
          : { issues: parsed.error.issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}
