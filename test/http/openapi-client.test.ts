// A client generated from docs/openapi.json with openapi-typescript's default options compiles the obvious
// calls with openapi-fetch, type-checked by the TypeScript compiler (strict, NodeNext): `{ body: { q } }`
// must be enough, defaulted fields staying optional.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { openapi } from '../../src/http/index.js';

// Under the repository's node_modules so that `openapi-fetch` resolves from the generated client.
const dir = resolve(import.meta.dirname, '..', '..', 'node_modules', '.cache', `websift-openapi-client-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CALLS = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080', headers: { authorization: 'Bearer ws_key' } });

export async function obviousCalls(q: string) {
  const search = await client.POST('/api/search', { body: { q } });
  const more = await client.POST('/api/search', { body: { q, include_content: true } });
  const get = await client.GET('/api/search', { params: { query: { q } } });
  const crawl = await client.POST('/api/crawl', { body: { urls: ['https://example.com/'] } });
  const usage = await client.GET('/api/usage');
  const titles = search.data && 'id' in search.data ? search.data.results.map((r) => r.title) : [];
  const code = crawl.error?.code;
  return { titles, code, more, get, balance: usage.data?.credits.balance };
}
`;

/** TypeScript's diagnostics for the calls against a client generated (default options) from `document`. */
async function compile(document: object, name: string): Promise<string[]> {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  const types = astToString(await openapiTS(document as OpenAPI3, { silent: true }));
  writeFileSync(join(at, 'api.ts'), types);
  writeFileSync(join(at, 'calls.ts'), CALLS);
  const program = ts.createProgram([join(at, 'calls.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('a client generated with openapi-typescript (default options)', () => {
  it('compiles the obvious calls with openapi-fetch', async () => {
    expect(await compile(openapi, 'current')).toEqual([]);
  }, 60_000);

  it('would not, were the request bodies schema components with defaults (the layout it replaced)', async () => {
    const doc = JSON.parse(JSON.stringify(openapi)) as {
      components: {
        schemas: Record<string, unknown>;
        requestBodies: Record<string, { content: { 'application/json': { schema: unknown } } }>;
      };
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    for (const [id, body] of Object.entries(doc.components.requestBodies))
      doc.components.schemas[id] = body.content['application/json'].schema;
    for (const item of Object.values(doc.paths)) {
      for (const operation of Object.values(item)) {
        const ref = (operation.requestBody as { $ref?: string } | undefined)?.$ref;
        if (ref)
          operation.requestBody = {
            required: true,
            content: { 'application/json': { schema: { $ref: ref.replace('requestBodies', 'schemas') } } },
          };
      }
    }
    const problems = await compile(doc, 'legacy');
    expect(problems.join('\n')).toMatch(/include_content/);
  }, 60_000);
});
