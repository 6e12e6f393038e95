// Holds real responses against the published document: the document names each reply's component
// (a $ref, or a oneOf of $refs), and the body is validated by that component's zod schema in
// src/schema, the one docs/openapi.json is generated from (test/http/openapi.test.ts checks that).

import { z } from 'zod';
import { responseSchemas } from '../../src/schema/index.js';

type Schema = Record<string, unknown>;
type ComponentName = keyof typeof responseSchemas;

/** Problems of `value` against `schema`, one line each (path: message); empty when it conforms. */
export function validate(value: unknown, schema: z.ZodType, _doc?: Schema): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map(
    (issue) => `$${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${issue.message}`,
  );
}

/** The response schema of an operation for a status, from the document. */
export function responseSchema(doc: Schema, path: string, method: string, status: number): z.ZodType {
  const paths = doc.paths as Record<string, Record<string, { responses: Record<string, Schema> }>>;
  const declared = paths[path]?.[method.toLowerCase()]?.responses[String(status)];
  // A shared reply is a $ref to components.responses.
  const reply =
    typeof declared?.$ref === 'string'
      ? (doc.components as Record<string, Record<string, Schema>>).responses![declared.$ref.split('/').pop()!]
      : declared;
  if (!reply) throw new Error(`document has no ${status} reply for ${method} ${path}`);
  const content = reply.content as Record<string, { schema: Schema }> | undefined;
  if (!content) throw new Error(`${status} reply of ${method} ${path} has no JSON body`);
  const schema = content['application/json']!.schema;
  const refs = (Array.isArray(schema.oneOf) ? (schema.oneOf as Schema[]) : [schema]).map((s) => component(s.$ref));
  return refs.length === 1 ? refs[0]! : oneOf(refs);
}

function component(ref: unknown): z.ZodType {
  const name = typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : '';
  if (!(name in responseSchemas)) throw new Error(`reply schema is not a response component: ${String(ref)}`);
  return responseSchemas[name as ComponentName];
}

/** JSON Schema's oneOf: exactly one of the schemas matches. */
function oneOf(schemas: z.ZodType[]): z.ZodType {
  return z.unknown().superRefine((value, ctx) => {
    const results = schemas.map((s) => s.safeParse(value));
    const matching = results.filter((r) => r.success).length;
    if (matching === 1) return;
    const why = results.flatMap((r) => (r.success ? [] : [r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join(', ')]));
    ctx.addIssue({ code: 'custom', message: `matches ${matching} of oneOf, expected exactly 1 (${why.join(' | ')})` });
  });
}
