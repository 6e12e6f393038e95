// The tool list: names, schemas derived from src/schema, descriptions a model can act on, annotations.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CHARS } from '../../src/mcp/index.js';
import { MAX_CONTENT_RESULTS, MAX_QUERY_LENGTH, MAX_URLS } from '../../src/schema/index.js';
import { GENERATIONS, type ToolInfo } from './clients.js';
import { type McpHarness, mcpHarness } from './harness.js';

const props = (tool: ToolInfo) => (tool.inputSchema['properties'] ?? {}) as Record<string, Record<string, unknown>>;

describe.each(GENERATIONS)('tools/list (%s client)', (generation) => {
  let h: McpHarness;
  let tools: Record<string, ToolInfo>;
  beforeAll(async () => {
    h = await mcpHarness({ mcp: { maxChars: 12_345 } });
    tools = Object.fromEntries((await (await h.connect(generation)).tools()).map((t) => [t.name, t]));
  });
  afterAll(() => h.close());

  it('lists web_search, web_extract and usage', () => {
    expect(Object.keys(tools).sort()).toEqual(['usage', 'web_extract', 'web_search']);
  });

  it("takes each tool's arguments with the API's own rules", () => {
    expect(Object.keys(props(tools.web_search!))).toEqual(['query', 'include_content', 'content_results', 'max_chars']);
    expect(tools.web_search!.inputSchema['required']).toEqual(['query']);
    expect(props(tools.web_search!)['query']).toMatchObject({ type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH });
    expect(props(tools.web_search!)['content_results']).toMatchObject({ type: 'integer', minimum: 1, maximum: MAX_CONTENT_RESULTS });
    expect(Object.keys(props(tools.web_extract!))).toEqual(['urls', 'format', 'query', 'max_chars', 'start_char']);
    expect(tools.web_extract!.inputSchema['required']).toEqual(['urls']);
    expect(props(tools.web_extract!)['urls']).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: MAX_URLS,
      items: { type: 'string', format: 'uri' },
    });
    expect(props(tools.web_extract!)['format']).toMatchObject({ enum: ['markdown', 'html'] });
    expect(props(tools.web_extract!)['start_char']).toMatchObject({ type: 'integer', minimum: 0 });
    expect(Object.keys(props(tools.usage!))).toEqual([]);
  });

  it('shows the configured budget as max_chars default and in the descriptions', () => {
    for (const name of ['web_search', 'web_extract']) {
      expect(props(tools[name]!)['max_chars']).toMatchObject({ type: 'integer', minimum: 1, default: 12_345 });
      expect(tools[name]!.description).toContain('12,345');
    }
  });

  it('describes costs, confirmed empties and reading on, each under 1,500 characters', () => {
    for (const tool of Object.values(tools)) expect(tool.description!.length).toBeLessThan(1500);
    expect(tools.web_search!.description).toMatch(/1 credit/);
    expect(tools.web_search!.description).toMatch(/confirmed empty/);
    expect(tools.web_search!.description).toMatch(/within 5 minutes is free/);
    expect(tools.web_extract!.description).toMatch(/1 credit per page/);
    expect(tools.web_extract!.description).toMatch(/start_char/);
    expect(tools.web_extract!.description).toMatch(/free within 5 minutes/);
    expect(tools.usage!.description).toMatch(/costs no credits/);
  });

  it('annotates: open world and not destructive; search and extract spend credits, usage only reads', () => {
    expect(tools.web_search!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    expect(tools.web_extract!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    expect(tools.usage!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
  });

  it('lists an object outputSchema per tool: the answer or the API error body', () => {
    for (const tool of Object.values(tools)) {
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      const variants = tool.outputSchema!['anyOf'] as Record<string, unknown>[];
      expect(variants.some((v) => (v['required'] as string[]).includes('code'))).toBe(true);
    }
  });
});

it('the default budget is 20,000 characters', () => {
  expect(DEFAULT_MAX_CHARS).toBe(20_000);
});
