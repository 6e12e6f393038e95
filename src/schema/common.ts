// Pieces the request and response schemas share, and the zod issues → `problems[]` mapping.

import { z } from 'zod';
import type { FieldProblem } from '../errors.js';

/** Trims and collapses every run of whitespace to one space (a query as searched and compared). */
export function collapseWhitespace(q: string): string {
  const trimmed = q.trim();
  // Most queries are collapsed already (a search collapses its query up to four times): a test, no copy.
  return UNCOLLAPSED.test(trimmed) ? trimmed.replace(/\s+/gu, ' ') : trimmed;
}

/** Whitespace that collapsing changes: any but a single space, or a space followed by more whitespace. */
const UNCOLLAPSED = /[^\S ]| \s/u;

/** The message of every boolean field (the engine also takes 'true'/'false'/'1'/'0', see wireForms). */
export const BOOLEAN_MESSAGE = 'must be a boolean (true or false)';

/** An optional boolean request field (null and the GET spellings are mapped by wireForms first). */
export const flag = (description: string) => z.boolean({ error: BOOLEAN_MESSAGE }).optional().meta({ default: false, description });

/**
 * Characters (code points) in `text`, counted only as far as `max + 1`: the contract's limits are in
 * characters, and `.length` counts UTF-16 units (an emoji is two).
 */
export function characterCount(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let n = 0;
  for (const _ of text) if (++n > max) break;
  return n;
}

/** The most characters (code points) of a query: search's `q` and extract's `query`. */
export const MAX_QUERY_LENGTH = 2000;

/** A query text: whitespace collapsed, then 1–2,000 characters. */
export const queryString = (description: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .overwrite(collapseWhitespace)
    .refine((q) => q.length > 0, 'must not be empty')
    // The limit is in characters (code points); zod's maxLength counts UTF-16 units.
    .refine((q) => characterCount(q, MAX_QUERY_LENGTH) <= MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
    .meta({ minLength: 1, maxLength: MAX_QUERY_LENGTH, description });

/** The reading-in-parts budget: `max_chars`, an integer ≥ 1 (docs/extract.md, "Reading in parts"). */
export const maxChars = (description: string) =>
  z.int({ error: 'must be an integer of at least 1' }).min(1, 'must be an integer of at least 1').optional().meta({ description });

/** What a result read in parts carries besides its content (`when`: on which results). */
export const partFields = (when: string) => ({
  total_chars: count(`The full content's length (UTF-16 code units, as String.length); only ${when}`).optional(),
  truncated: z
    .boolean()
    .optional()
    .meta({ description: `Whether content exists that this answer does not show (a marker line says where to read on); only ${when}` }),
});

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
