// Pieces the request and response schemas share, and the zod issues → `problems[]` mapping.

import { z } from 'zod';
import type { FieldProblem } from '../errors.js';

/** Trims and collapses every run of whitespace to one space (a query as searched and compared). */
export function collapseWhitespace(q: string): string {
  return q.trim().replace(/\s+/gu, ' ');
}

/** The message of every boolean field (the engine also takes 'true'/'false'/'1'/'0', see wireForms). */
export const BOOLEAN_MESSAGE = 'must be a boolean (true or false)';

/** An optional boolean request field (null and the GET spellings are mapped by wireForms first). */
export const flag = (description: string) =>
  z.boolean({ error: BOOLEAN_MESSAGE }).optional().meta({ default: false, description });

/** A UTC timestamp as the engine writes them (`Date#toISOString`). */
export const timestamp = () => z.iso.datetime();

/** A non-negative count (credits, results, milliseconds). */
export const count = (description?: string) =>
  description === undefined ? z.int().nonnegative() : z.int().nonnegative().meta({ description });

/** An absolute URL as a string (not re-parsed at run time: it comes from the engine or the page). */
export const absoluteUrl = (description?: string) =>
  z.string().meta({ format: 'uri', ...(description === undefined ? {} : { description }) });

/**
 * Fields sent as null count as absent, and boolean and integer fields also take the spellings of a GET
 * query string ('true'/'false'/'1'/'0', '5'), so a caller may pass query parameters straight through.
 * The schemas then hold only the documented JSON types.
 */
export function wireForms(
  body: Record<string, unknown>,
  fields: { absent?: readonly string[]; flags?: readonly string[]; integers?: readonly string[] },
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const name of [...(fields.absent ?? []), ...(fields.flags ?? []), ...(fields.integers ?? [])]) {
    if (out[name] === null) delete out[name];
  }
  for (const name of fields.flags ?? []) {
    const value = out[name];
    if (value === 'true' || value === '1') out[name] = true;
    else if (value === 'false' || value === '0') out[name] = false;
  }
  for (const name of fields.integers ?? []) {
    const value = out[name];
    if (typeof value === 'string' && /^\s*-?\d+\s*$/u.test(value)) out[name] = Number(value);
  }
  return out;
}

/**
 * zod's issues as the 400's `problems`: `urls[3]`-style field names, in the order of the body's fields,
 * a field's own problem before those of its items (`urls` before `urls[0]`).
 */
export function problemsOf(error: z.ZodError): FieldProblem[] {
  const groups = new Map<PropertyKey, z.core.$ZodIssue[]>();
  for (const issue of error.issues) {
    const key = issue.path[0] ?? '';
    groups.set(key, [...(groups.get(key) ?? []), issue]);
  }
  return [...groups.values()].flatMap((issues) =>
    issues
      .map((issue, i) => ({ issue, i }))
      .sort((a, b) => a.issue.path.length - b.issue.path.length || a.i - b.i)
      .map(({ issue }) => ({ field: fieldName(issue.path), message: issue.message })),
  );
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}
