// The tools' input and output schemas, derived from the HTTP API's own (src/schema): one description
// of the API. The input schemas only advertise: the engine validates the arguments itself, so a bad
// one gets the API's 400 (naming the argument, charging nothing) as the tool's error result, not the
// SDK's own message.

import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { tidyJsonSchema } from '../http/openapi.js';
import {
  emptySearchResponse, errorBody, extractRequest, extractResponse, insufficientCreditsBody, rateLimitBody, searchErrorBody,
  searchRequest, searchResponse, usageResponse,
} from '../schema/index.js';

type Shape = Record<string, z.ZodType | undefined>;
const searchFields = searchRequest.shape as unknown as Shape;
const extractFields = extractRequest.shape as unknown as Shape;

// The read-in-parts fields come from src/schema when it has them; until then, the same rules here.
const readInParts = {
  max_chars: z.int().min(1).optional().meta({ description: 'At most this many characters of page content in the answer, over all its pages' }),
  start_char: z.int().min(0).optional().meta({ description: "Skip this many characters of each page's content first (read on where a cut answer said)" }),
  query: z.string().optional().meta({ description: "Return the page's passages most relevant to this query instead of the page from the top (Markdown only)" }),
};
const field = (fields: Shape, name: keyof typeof readInParts): z.ZodType => fields[name] ?? readInParts[name];

/** The tools' arguments. `maxChars` is the server's default budget, shown as `max_chars`'s default. */
export function toolInputs(maxChars: number) {
  const budget = field(searchFields, 'max_chars').meta({ default: maxChars });
  return {
    web_search: z.object({
      query: searchRequest.shape.q,
      include_content: searchRequest.shape.include_content,
      content_results: searchRequest.shape.content_results,
      max_chars: budget,
    }),
    web_extract: z.object({
      urls: extractRequest.shape.urls,
      format: extractRequest.shape.format,
      query: field(extractFields, 'query'),
      max_chars: field(extractFields, 'max_chars').meta({ default: maxChars }),
      start_char: field(extractFields, 'start_char'),
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
