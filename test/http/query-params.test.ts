import { describe, expect, it } from 'vitest';
import { QUERY_NAMES, type QueryValues, queryValues, searchParamsFromQuery } from '../../src/http/query-params.js';

const SINGLE = ['q', 'include_content', 'content_results', 'max_chars'] as const;

/** The mapping as a `getAll` per name reads it: the one-pass reading must give the same params and problems. */
function reference(query: URLSearchParams): unknown {
  const problems: string[] = [];
  const params: Record<string, unknown> = {};
  for (const name of SINGLE) {
    const values = query.getAll(name);
    if (values.length > 1) problems.push(name);
    else if (values.length === 1) params[name] = values[0];
  }
  if (query.has('engine')) params.engine = query.get('engine');
  if (query.has('engines')) params.engines = query.getAll('engines');
  return problems.length > 0 ? { problems } : params;
}

function actual(query: URLSearchParams, text: string): unknown {
  try {
    const params = searchParamsFromQuery(queryValues(text));
    // Values as given, to compare with the reference (the typed ones are checked in params.test.ts).
    for (const name of ['include_content', 'content_results', 'max_chars']) if (name in params) params[name] = query.get(name);
    return params;
  } catch (error) {
    return { problems: (error as { problems: { field: string }[] }).problems.map((p) => p.field) };
  }
}

describe('searchParamsFromQuery', () => {
  it('reads each name as getAll does: first value, repeats refused in order, engines all, others ignored', () => {
    const queries = [
      'q=cats',
      '',
      'q=',
      'q=a&q=b',
      'max_chars=5&q=cats&content_results=2&include_content=true',
      'include_content=1&include_content=0&q=a&q=b&max_chars=1&max_chars=2',
      'q=cats&engine=google&engine=bing',
      'q=cats&engines=google&other=1&engines=bing&engines=',
      'engine=&engines=x',
      'q=cats&__proto__=1&constructor=2&toString=3',
      'q=caf%C3%A9+bar&Q=upper',
    ];
    for (const query of queries) {
      const params = new URLSearchParams(query);
      expect([query, actual(params, query)]).toEqual([query, reference(params)]);
    }
  });
});

describe('queryValues', () => {
  /** The names read, as URLSearchParams parses the query (what a parsed URL's `searchParams` gives). */
  const READ = ['q', 'include_content', 'content_results', 'max_chars', 'engine', 'engines'];
  const reference = (query: string) =>
    new Map(READ.flatMap((name) => (new URLSearchParams(query).has(name) ? [[name, new URLSearchParams(query).getAll(name)]] : [])));
  const sorted = (values: Map<string, string[]>) => new Map([...values].sort(([a], [b]) => a.localeCompare(b)));
  /** queryValues' answer as the reference's Map: the names given, with their values. */
  const asMap = (values: QueryValues) =>
    new Map(QUERY_NAMES.flatMap((name) => (values[name] === undefined ? [] : [[name, values[name]] as [string, string[]]])));

  it('splits a query as URLSearchParams parses it: pairs, the first =, + as a space, empty pairs, names without =', () => {
    const queries = [
      '',
      'q',
      'q=',
      '=x',
      '&&q=a&&',
      'q=a=b&q==c',
      'q=a+b++c+&engines=x+y&engines=+',
      'q+=a&+q=b&q=c',
      'q=a&Q=b&q =c&engine&engines=&engines',
      'max_chars=-0012&content_results=2&include_content=TRUE&other=1',
      'q=caf%C3%A9+bar&engine=%zz%&q=%2',
      'q="a\'b<c>`d{e}|f^g[h]\\i"',
      'q=a;b&engines=a,b',
      '__proto__=1&constructor=2&q=x',
    ];
    for (const query of queries) expect([query, sorted(asMap(queryValues(query)))]).toEqual([query, sorted(reference(query))]);
  });

  it("reads a parsed URL's searchParams as they are", () => {
    const url = new URL('http://h/api/search?q=a b&engines=x#frag');
    expect(sorted(asMap(queryValues(url.searchParams)))).toEqual(sorted(reference(url.searchParams.toString())));
  });
});
