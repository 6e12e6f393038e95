// Checks a real HTTP response against the published document with a standard JSON Schema validator
// (Ajv 8, draft 2020-12 as OpenAPI 3.1 uses, with ajv-formats): the status is declared for the
// operation, every API header it carries is declared with a valid value, and the body validates
// against the declared schema. Independent of src/schema's zod (which the document is generated from).

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openapi } from '../../src/http/index.js';

type Json = Record<string, unknown>;
const doc = JSON.parse(JSON.stringify(openapi)) as Json;
const DOC_ID = 'websift-openapi';

// OpenAPI keywords (`example`, `description` on non-schemas…) are not JSON Schema vocabulary: not strict.
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ ...doc, $id: DOC_ID });

/** Headers of the transport or the host, not of the API's description. */
const TRANSPORT = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'cache-control']);

export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

/** The response object the document declares for `method path` and `status` (a 404/405 of a path or method it lacks: the shared reply). */
export function declaredReply(path: string, method: string, status: number): Json | undefined {
  const paths = doc.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
  const item = paths[path];
  const operation = item?.[method.toLowerCase()] ?? (status === 405 && item ? Object.values(item)[0] : undefined);
  const reply = operation?.responses[String(status)] ?? (status === 404 && !item ? { $ref: '#/components/responses/NotFound' } : undefined);
  return reply && resolve(reply);
}

function resolve(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const target = node.$ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, part) => (at as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return resolve(target as Json);
}

/** Problems of `reply` against the document (empty when it conforms). */
export function conformance(reply: Reply, path: string, method: string): string[] {
  const declared = declaredReply(path, method, reply.status);
  if (!declared) return [`${reply.status} is not declared for ${method} ${path}`];
  const problems: string[] = [];
  const headers = Object.fromEntries(
    Object.entries((declared.headers ?? {}) as Record<string, Json>).map(([k, v]) => [k.toLowerCase(), resolve(v)]),
  );
  reply.headers.forEach((value, name) => {
    if (TRANSPORT.has(name)) return;
    const header = headers[name];
    if (!header) return void problems.push(`header ${name} is not declared for ${reply.status}`);
    const schema = header.schema as Json;
    const typed = schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (!ajv.validate(schema, typed)) problems.push(`header ${name}: ${ajv.errorsText()}`);
  });
  const content = declared.content as Record<string, { schema: Json }> | undefined;
  const schema = content?.['application/json']?.schema;
  if (!schema) return reply.body === null ? problems : [...problems, 'a body where none is declared'];
  const validate = ajv.compile(withDocRefs(schema));
  if (!validate(reply.body))
    problems.push(...(validate.errors ?? []).map((e) => `body${e.instancePath}: ${e.message ?? ''} ${JSON.stringify(e.params)}`));
  return problems;
}

/** The schema with its document-local `#/…` refs pointed at the document added to Ajv. */
function withDocRefs(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOC_ID}#/`)) as Json;
}

/** Reads a fetch Response into a Reply. */
export async function replyOf(res: Response): Promise<Reply> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? null : (JSON.parse(text) as unknown) };
}
