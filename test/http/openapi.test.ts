import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openapi } from '../../src/http/index.js';
import { scriptedSource } from '../../src/testing/index.js';
import { type Harness, harness, postJson } from './harness.js';
import { responseSchema, validate } from './schema.js';

const doc = openapi as unknown as Record<string, unknown>;
const root = fileURLToPath(new URL('../../', import.meta.url));
const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

async function expectDocumented(h: Harness, path: string, init: RequestInit & { key?: string | null }, status: number) {
  const res = await h.call(path, init);
  expect(res.status, `${init.method ?? 'GET'} ${path}`).toBe(status);
  const body: unknown = await res.json();
  const route = path.split('?')[0]!;
  const problems = validate(body, responseSchema(doc, route, init.method ?? 'GET', status), doc);
  expect(problems, JSON.stringify(body)).toEqual([]);
  return body;
}

describe('OpenAPI document', () => {
  it('docs/openapi.json is what the schemas produce, byte for byte (regenerate with `npm run openapi`)', () => {
    expect(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')).toBe(`${JSON.stringify(openapi, null, 2)}\n`);
  });

  it("passes Redocly's recommended rules with no error and no warning (npm run lint:openapi)", () => {
    const run = spawnSync(process.execPath, [redocly, 'lint', 'docs/openapi.json', '--extends=recommended', '--format=json'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { totals: object; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.status).toBe(0);
  }, 60_000);

  it('documents the fields added to results and requests', () => {
    const schemas = openapi.components.schemas as Record<string, { properties: Record<string, { description?: string }> }>;
    expect(Object.keys(schemas['PageMetadata']!.properties).sort()).toEqual([
      'canonical_url',
      'description',
      'final_url',
      'language',
      'modified_time',
      'published_time',
      'site_name',
      'title',
    ]);
    expect(schemas['ExtractResult']!.properties['links']!.description).toMatch(/include_links/);
    expect(schemas['ExtractResult']!.properties['metadata']!.description).toBeTruthy();
    expect(schemas['SearchResult']!.properties['metadata']!.description).toMatch(/content/);
    const requests = openapi.components.requestBodies as Record<
      string,
      { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } }
    >;
    expect(requests['ExtractRequest']!.content['application/json'].schema.properties['include_links']).toMatchObject({
      type: 'boolean',
      default: false,
    });
    // Reading in parts (docs/extract.md).
    expect(requests['ExtractRequest']!.content['application/json'].schema.properties['max_chars']).toMatchObject({
      type: 'integer',
      minimum: 1,
    });
    expect(requests['ExtractRequest']!.content['application/json'].schema.properties['start_char']).toMatchObject({
      type: 'integer',
      minimum: 0,
      default: 0,
    });
    expect(requests['ExtractRequest']!.content['application/json'].schema.properties['query']).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 2000,
    });
    expect(requests['SearchRequest']!.content['application/json'].schema.properties['max_chars']).toMatchObject({
      type: 'integer',
      minimum: 1,
    });
    for (const result of ['ExtractResult', 'SearchResult']) {
      expect(Object.keys(schemas[result]!.properties)).toEqual(expect.arrayContaining(['total_chars', 'truncated']));
    }
    const get = openapi.paths['/api/search'].get.parameters as readonly { name: string }[];
    expect(get.map((p) => p.name)).toContain('max_chars');
  });

  it('describes the three endpoints with their methods', () => {
    expect(Object.keys(openapi.paths).sort()).toEqual(['/api/crawl', '/api/search', '/api/usage']);
    expect(Object.keys(openapi.paths['/api/search']).sort()).toEqual(['get', 'post']);
  });

  it('matches real search answers: success, empty (unconfirmed and confirmed) and errors', async () => {
    const h = await harness();
    await expectDocumented(h, '/api/search?q=cats', {}, 200);
    await expectDocumented(h, '/api/search', postJson({ q: 'cats', engine: 'x' }), 200);
    const empty = (await expectDocumented(h, '/api/search?q=nothing+here', {}, 200)) as { metadata: { status: string } };
    expect(empty.metadata.status).toBe('no_results');
    await expectDocumented(h, '/api/search', postJson('{oops'), 400);
    await expectDocumented(h, '/api/search?q=cats', { key: 'ws_bad' }, 401);

    const two = await harness({ sources: [scriptedSource('a', {}), scriptedSource('b', {})] });
    const confirmed = (await expectDocumented(two, '/api/search?q=zzz', {}, 200)) as { metadata: { no_results_verified: boolean } };
    expect(confirmed.metadata.no_results_verified).toBe(true);
  });

  it('matches real 402, 429 and 503 answers', async () => {
    const poor = await harness({ credits: 0 });
    await expectDocumented(poor, '/api/search?q=cats', {}, 402);
    const limited = await harness({ engine: { rateLimit: { limit: 1, window: 1 } } });
    await limited.call('/api/usage');
    await expectDocumented(limited, '/api/search?q=cats', {}, 429);
    await expectDocumented(limited, '/api/usage', {}, 429);
    const down = await harness({ sources: [scriptedSource('down', () => ({ fail: 'x' }))] });
    await expectDocumented(down, '/api/search?q=cats', {}, 503);
  });

  it('matches real usage answers', async () => {
    const h = await harness();
    await h.call('/api/search?q=cats');
    await expectDocumented(h, '/api/usage', {}, 200);
    await expectDocumented(h, '/api/usage', { key: null }, 401);
  });

  it('the validator catches drift: an undocumented field or a wrong type fails', async () => {
    const h = await harness();
    const body = (await (await h.call('/api/usage')).json()) as Record<string, unknown>;
    const schema = responseSchema(doc, '/api/usage', 'GET', 200);
    expect(validate(body, schema, doc)).toEqual([]);
    expect(validate({ ...body, extra: 1 }, schema, doc)).not.toEqual([]);
    expect(validate({ ...body, timestamp: 5 }, schema, doc)).not.toEqual([]);
    const { credits: _omit, ...missing } = body;
    expect(validate(missing, schema, doc)).not.toEqual([]);
  });
});
