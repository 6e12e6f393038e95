// A repeat-window store that fails a required read (Redis answering late) refuses web_extract with the
// API's 503 cache_unavailable: isError, the body as structuredContent (which both SDK clients check
// against the tool's outputSchema, so the code must be in it), "retryable" for the model, nothing charged.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepeatEntry } from '../../src/core/books/index.js';
import type { CacheStore } from '../../src/ports/cache.js';
import { errorBody } from '../../src/schema/index.js';
import { GENERATIONS, type McpClient } from './clients.js';
import { type McpHarness, mcpHarness, textOf } from './harness.js';

/** A window store whose required reads fail, as a redisCacheStore's on a live connection that timed out twice. */
const lateStore = (): CacheStore<RepeatEntry> => ({
  async get(_key, options) {
    if (options?.required) throw new Error('Command timed out');
    return undefined;
  },
  async set() {},
  async delete() {},
});

describe.each(GENERATIONS)('web_extract when the window store does not answer (%s client)', (generation) => {
  let h: McpHarness;
  let client: McpClient;
  beforeAll(async () => {
    h = await mcpHarness({ engine: { caches: { repeats: lateStore() } } });
    client = await h.connect(generation);
  });
  afterAll(() => h.close());

  it('isError with the 503 cache_unavailable body, retryable, nothing charged', async () => {
    const before = await h.books();
    const result = await client.call('web_extract', { urls: [h.pages.url('/short.html')] });
    expect(result.isError).toBe(true);
    expect(errorBody.parse(result.structuredContent)).toMatchObject({ code: 'cache_unavailable', retryable: true });
    expect(textOf(result)).toMatch(/^Error 503 cache_unavailable/);
    expect(textOf(result)).toContain('Retryable');
    expect(await h.books()).toEqual(before);
  });
});
