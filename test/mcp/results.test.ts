// What a tool call answers: the API's body as structuredContent (checked by both SDK clients against
// the listed outputSchema, and here against src/schema), Markdown for the model, and isError only when
// the whole call failed, charging nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emptySearchResponse,
  errorBody,
  extractResponse,
  insufficientCreditsBody,
  rateLimitBody,
  searchResponse,
  usageResponse,
} from '../../src/schema/index.js';
import { GENERATIONS, type McpClient } from './clients.js';
import { type McpHarness, mcpHarness, textOf } from './harness.js';

describe.each(GENERATIONS)('tool results (%s client over HTTP)', (generation) => {
  let h: McpHarness;
  let client: McpClient;
  beforeAll(async () => {
    h = await mcpHarness();
    client = await h.connect(generation);
  });
  afterAll(() => h.close());

  it('web_search: the API answer as structuredContent, titles, URLs and snippets as Markdown, charged once', async () => {
    const before = await h.books();
    const result = await client.call('web_search', { query: 'cats' });
    expect(result.isError).toBeFalsy();
    const answer = searchResponse.parse(result.structuredContent);
    expect(answer.results.map((r) => r.url)).toEqual(['https://cats.test/', 'https://cats.test/more']);
    const text = textOf(result);
    for (const r of answer.results) expect(text).toContain(r.title), expect(text).toContain(r.url), expect(text).toContain(r.snippet);
    expect(answer.metadata.credits_used).toBe(1);
    expect((await h.books()).balance).toBe(before.balance - 1);
  });

  it('a confirmed empty search is a normal result that says it was confirmed and charged', async () => {
    const before = await h.books();
    const result = await client.call('web_search', { query: 'nothing at all' });
    expect(result.isError).toBeFalsy();
    const answer = emptySearchResponse.parse(result.structuredContent);
    expect(answer.metadata).toMatchObject({ no_results_verified: true, charged: true, credits_used: 1 });
    expect(textOf(result)).toMatch(/confirmed empty/i);
    expect(textOf(result)).toMatch(/charged 1 credit/);
    expect((await h.books()).balance).toBe(before.balance - 1);
  });

  it('an unconfirmed empty search is a normal result that says it was not confirmed and cost nothing', async () => {
    const before = await h.books();
    const result = await client.call('web_search', { query: 'flaky' });
    expect(result.isError).toBeFalsy();
    const answer = emptySearchResponse.parse(result.structuredContent);
    expect(answer.metadata).toMatchObject({ no_results_verified: false, charged: false, credits_used: 0 });
    expect(textOf(result)).toMatch(/not confirmed/i);
    expect(textOf(result)).toMatch(/not charged/);
    expect((await h.books()).balance).toBe(before.balance);
  });

  it('web_extract: a failed URL is reported in a normal result with its error type and status, uncharged', async () => {
    const before = await h.books();
    const missing = h.pages.url('/missing.html');
    const result = await client.call('web_extract', { urls: [h.pages.url('/short.html'), missing] });
    expect(result.isError).toBeFalsy();
    const answer = extractResponse.parse(result.structuredContent);
    expect(answer.results.map((r) => [r.success, r.error_type, r.status_code])).toEqual([
      [true, undefined, 200],
      [false, 'http', 404],
    ]);
    expect(answer.metadata.credits_used).toBe(1);
    const text = textOf(result);
    expect(text).toContain('Tide pools form where rocky shores');
    expect(text).toContain(`## ${missing}\nFailed (http, HTTP 404, not charged)`);
    expect((await h.books()).balance).toBe(before.balance - 1);
  });

  it('usage: the API answer, read-only and free', async () => {
    const before = await h.books();
    const result = await client.call('usage');
    expect(result.isError).toBeFalsy();
    const usage = usageResponse.parse(result.structuredContent);
    expect(usage).toMatchObject({ organization: 'acme', credits: { balance: before.balance } });
    expect(textOf(result)).toContain(`${before.balance} credits left`);
    expect((await h.books()).balance).toBe(before.balance);
  });

  it.each([
    ['web_search', { query: '   ' }, 'query'],
    ['web_search', { query: 'cats', content_results: 11 }, 'content_results'],
    ['web_search', {}, 'query'],
    ['web_extract', { urls: [] }, 'urls'],
    ['web_extract', { urls: ['ftp://example.com/'] }, 'urls[0]'],
    ['web_extract', { urls: 'https://example.com/' }, 'urls'],
    ['web_extract', { urls: ['https://example.com/'], format: 'pdf' }, 'format'],
  ])('a bad argument (%s %j) is isError with the 400 naming %s, and charges nothing', async (tool, args, field) => {
    const before = await h.books();
    const result = await client.call(tool, args);
    expect(result.isError).toBe(true);
    const body = errorBody.parse(result.structuredContent);
    expect(body).toMatchObject({ code: 'invalid_request', retryable: false });
    expect(body.problems?.map((p) => p.field)).toContain(field);
    expect(textOf(result)).toContain(`${field}:`);
    expect(await h.books()).toEqual(before);
  });

  it('402: isError with the API body, nothing charged', async () => {
    await h.engine.admin.createOrganization(`poor-${generation}`, { credits: 0 });
    const poor = await h.connect(generation, await h.engine.admin.createApiKey(`poor-${generation}`));
    const result = await poor.call('web_extract', { urls: [h.pages.url('/short.html')] });
    expect(result.isError).toBe(true);
    expect(insufficientCreditsBody.parse(result.structuredContent)).toMatchObject({
      code: 'insufficient_credits',
      credits_required: 1,
      credits_available: 0,
    });
    expect(textOf(result)).toMatch(/^Error 402 insufficient_credits/);
    expect(await h.books(`poor-${generation}`)).toEqual({ balance: 0, used: 0 });
  });
});

describe.each(GENERATIONS)('rate limit (%s client)', (generation) => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await mcpHarness({ engine: { rateLimit: { limit: 2, window: 60 } } });
  });
  afterAll(() => h.close());

  it('429: isError with retry_after, said in the Markdown; nothing charged', async () => {
    const client = await h.connect(generation);
    expect((await client.call('web_search', { query: 'cats' })).isError).toBeFalsy();
    expect((await client.call('web_search', { query: 'cats' })).isError).toBeFalsy();
    const refused = await client.call('web_search', { query: 'cats', include_content: false });
    expect(refused.isError).toBe(true);
    const body = rateLimitBody.parse(refused.structuredContent);
    expect(body.code).toBe('rate_limited');
    expect(textOf(refused)).toContain(`Retry after ${body.retry_after} s`);
    expect(await h.books()).toEqual({ balance: 99, used: 1 }); // the first search; the second was a free repeat
  });
});
