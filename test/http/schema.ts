// A JSON-schema validator for the subset docs/openapi.json uses, so tests can hold real responses
// against the published document: type, const, enum, required, properties, additionalProperties,
// items, min/maxItems, minimum, maximum, min/maxLength, oneOf, $ref (local components only).

type Schema = Record<string, unknown>;

export function validate(value: unknown, schema: Schema, root: Schema, path = '$'): string[] {
  if (typeof schema.$ref === 'string') return validate(value, resolveRef(schema.$ref, root), root, path);
  const problems: string[] = [];
  if ('const' in schema && value !== schema.const) problems.push(`${path}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if (Array.isArray(schema.oneOf)) {
    const matching = schema.oneOf.filter((s) => validate(value, s as Schema, root, path).length === 0).length;
    if (matching !== 1) problems.push(`${path}: matches ${matching} of oneOf, expected exactly 1`);
  }
  if (typeof schema.type === 'string' && !hasType(value, schema.type)) {
    problems.push(`${path}: expected ${schema.type}, got ${JSON.stringify(value)}`);
    return problems;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`${path}: below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`${path}: above ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) problems.push(`${path}: too short`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) problems.push(`${path}: too long`);
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) problems.push(`${path}: not a date-time`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) problems.push(`${path}: fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) problems.push(`${path}: more than ${schema.maxItems} items`);
    if (schema.items) value.forEach((item, i) => problems.push(...validate(item, schema.items as Schema, root, `${path}[${i}]`)));
  }
  if (isObject(value)) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const name of (schema.required ?? []) as string[]) {
      if (!(name in value)) problems.push(`${path}: missing required ${name}`);
    }
    for (const [name, child] of Object.entries(value)) {
      const sub = properties[name];
      if (sub) problems.push(...validate(child, sub, root, `${path}.${name}`));
      else if (schema.additionalProperties === false) problems.push(`${path}: unexpected property ${name}`);
    }
  }
  return problems;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object': return isObject(value);
    case 'array': return Array.isArray(value);
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'null': return value === null;
    default: return typeof value === type;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function resolveRef(ref: string, root: Schema): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local $ref supported: ${ref}`);
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[part];
  if (!isObject(node)) throw new Error(`unresolved $ref ${ref}`);
  return node;
}

/** The response schema of an operation for a status, from the document. */
export function responseSchema(doc: Schema, path: string, method: string, status: number): Schema {
  const paths = doc.paths as Record<string, Record<string, { responses: Record<string, Schema> }>>;
  const reply = paths[path]?.[method.toLowerCase()]?.responses[String(status)];
  if (!reply) throw new Error(`document has no ${status} reply for ${method} ${path}`);
  const content = reply.content as Record<string, { schema: Schema }> | undefined;
  if (!content) throw new Error(`${status} reply of ${method} ${path} has no JSON body`);
  return content['application/json']!.schema;
}
