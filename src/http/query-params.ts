// Maps a GET query string to the typed search parameters the engine takes (the same shape as the POST body).

import { type FieldProblem, InvalidRequestError } from '../errors.js';

const BOOLEANS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };
/** Parameters that may appear once; unknown parameters are ignored like unknown body fields. */
const SINGLE = ['q', 'include_content', 'content_results', 'max_chars'] as const;

/** The query (its values of the names read: queryValues) as a search body in wire JSON (not yet validated: the engine does that). */
export function searchParamsFromQuery(given: QueryValues): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  // Each name read by its own field (a keyed read over the four names cost a generic lookup each); problems in SINGLE's order.
  let problems = single(given.q, 'q', params, undefined);
  problems = single(given.include_content, 'include_content', params, problems);
  problems = single(given.content_results, 'content_results', params, problems);
  problems = single(given.max_chars, 'max_chars', params, problems);
  // Deprecated and ignored, but passed on so the engine sees the same parameters as with POST.
  if (given.engine) params.engine = given.engine[0];
  if (given.engines) params.engines = given.engines;
  if (problems !== undefined) throw new InvalidRequestError(problems);
  return params;
}

/** One of the SINGLE parameters into `params`, or its problem added to `problems` (made for the first one). */
function single(
  values: string[] | undefined,
  name: (typeof SINGLE)[number],
  params: Record<string, unknown>,
  problems: FieldProblem[] | undefined,
) {
  if (values === undefined) return problems;
  if (values.length > 1) return withProblem(problems, { field: name, message: `given ${values.length} times; send it once` });
  const value = values[0]!;
  if (name === 'q') params.q = value;
  else if (name === 'include_content') {
    const flag = BOOLEANS[value.toLowerCase()];
    if (flag === undefined) return withProblem(problems, { field: name, message: `must be true, false, 1 or 0, got '${value}'` });
    params.include_content = flag;
  } else {
    if (!/^-?\d+$/.test(value.trim())) return withProblem(problems, { field: name, message: `must be an integer, got '${value}'` });
    params[name] = Number(value);
  }
  return problems;
}

function withProblem(problems: FieldProblem[] | undefined, problem: FieldProblem): FieldProblem[] {
  if (problems === undefined) return [problem];
  problems.push(problem);
  return problems;
}

/** The names read from a query: the single ones and the deprecated two. */
export const QUERY_NAMES = [...SINGLE, 'engine', 'engines'] as const;
type QueryName = (typeof QUERY_NAMES)[number];

/**
 * The values of the names a search reads (the single ones and the deprecated two), each in the order
 * given; a name not in the query is undefined. Fields of one fixed shape, not a Map: the Map, its
 * hashing and its growth were most of queryValues' cost.
 */
export class QueryValues {
  q: string[] | undefined = undefined;
  include_content: string[] | undefined = undefined;
  content_results: string[] | undefined = undefined;
  max_chars: string[] | undefined = undefined;
  engine: string[] | undefined = undefined;
  engines: string[] | undefined = undefined;
}

function add(given: QueryValues, name: QueryName, value: string): void {
  const values = given[name];
  if (values) values.push(value);
  else given[name] = [value];
}

const isQueryName = (name: string): name is QueryName =>
  name === 'q' ||
  name === 'include_content' ||
  name === 'content_results' ||
  name === 'max_chars' ||
  name === 'engine' ||
  name === 'engines';

/**
 * The values of the names read, in the order given: one pass over the query (a `getAll`/`has` per
 * name scanned it six times, ~1 µs a request). A query text without `%` is split here as
 * URLSearchParams would (`&` between pairs, the first `=` in a pair, `+` for a space): with nothing to
 * percent-decode its parse is just that, and building the URLSearchParams cost more than the split.
 */
export function queryValues(query: string | URLSearchParams): QueryValues {
  const given = new QueryValues();
  if (typeof query !== 'string' || query.includes('%')) {
    for (const [name, value] of typeof query === 'string' ? new URLSearchParams(query) : query)
      if (isQueryName(name)) add(given, name, value);
    return given;
  }
  for (let at = 0; at < query.length; ) {
    let end = query.indexOf('&', at);
    if (end === -1) end = query.length;
    const eq = query.indexOf('=', at);
    const cut = eq === -1 || eq > end ? end : eq;
    // No name read has a `+` (a space once decoded): a raw name is read exactly when its decoded one is.
    const name = query.slice(at, cut);
    if (isQueryName(name)) add(given, name, cut === end ? '' : plusAsSpace(query.slice(cut + 1, end)));
    at = end + 1;
  }
  return given;
}

/** `text` with each `+` a space (an indexOf loop: `replaceAll('+', ' ')` cost twice as much on a query value). */
function plusAsSpace(text: string): string {
  let at = text.indexOf('+');
  if (at === -1) return text;
  let out = '';
  let from = 0;
  for (; at !== -1; at = text.indexOf('+', at + 1)) {
    out += `${text.slice(from, at)} `;
    from = at + 1;
  }
  return out + text.slice(from);
}

/** True when a request names a deprecated search parameter. */
export const usesDeprecatedEngine = (params: Record<string, unknown>): boolean =>
  Object.hasOwn(params, 'engine') || Object.hasOwn(params, 'engines');
