// The budget: a tool result never holds more page content than max_chars (default 20,000) plus short
// lines around it; a cut page is read on with start_char to its end, each repeat free within 5 minutes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractResponse, searchResponse } from '../../src/schema/index.js';
import { GENERATIONS, type McpClient } from './clients.js';
import { LIGHTHOUSE, type McpHarness, mcpHarness, textOf } from './harness.js';

/** The short lines a result may add around its pages' content: a header, and per page its title, URL, size and marker. */
const allowance = (pages: number) => 120 + pages * 250;
const CUT = /\n\n\[websift: cut at [\d,]+ of [\d,]+ characters; read on with start_char=(\d+)\]$/;

describe.each(GENERATIONS)('the budget (%s client)', (generation) => {
  let h: McpHarness;
  let client: McpClient;
  let whole: string;
  beforeAll(async () => {
    h = await mcpHarness();
    client = await h.connect(generation);
    // The whole page, for reference, through the engine itself (another organization: acme's books stay untouched).
    await h.engine.admin.createOrganization('reference', { credits: 10 });
    whole = (await h.engine.extract({ urls: [h.pages.url('/long.html')] }, { organization: 'reference' })).results[0]!.markdown!;
    expect(whole.length).toBeGreaterThan(25_000);
  });
  afterAll(() => h.close());

  it('web_extract without max_chars: at most 20,000 characters of content, cut with a marker naming where to read on', async () => {
    const result = await client.call('web_extract', { urls: [h.pages.url('/long.html')] });
    const page = extractResponse.parse(result.structuredContent).results[0]!;
    expect(page).toMatchObject({ success: true, total_chars: whole.length, truncated: true });
    expect(page.markdown!.replace(CUT, '').length).toBeLessThanOrEqual(20_000);
    expect(page.markdown).toMatch(CUT);
    expect(textOf(result).length).toBeLessThanOrEqual(20_000 + allowance(1));
  });

  it.each([500, 3_000, 12_000])(
    'web_extract with max_chars %i over two pages, Markdown and HTML: never over it plus short lines',
    async (maxChars) => {
      for (const format of ['markdown', 'html']) {
        const result = await client.call('web_extract', {
          urls: [h.pages.url('/long.html'), h.pages.url('/short.html')],
          format,
          max_chars: maxChars,
        });
        expect(result.isError).toBeFalsy();
        expect(textOf(result).length).toBeLessThanOrEqual(maxChars + allowance(2));
      }
    },
  );

  it('reads a long page to its end with start_char: the pieces join back to the whole page, and only the first is charged', async () => {
    await h.clock.advance(5 * 60_000 + 1); // past the earlier tests' repeat window: the first piece is charged
    const before = await h.books();
    const pieces: string[] = [];
    let start: number | undefined = 0;
    for (let round = 0; start !== undefined; round++) {
      expect(round).toBeLessThan(20);
      const result = await client.call('web_extract', { urls: [h.pages.url('/long.html')], max_chars: 4_000, start_char: start });
      const text = textOf(result);
      expect(text.length).toBeLessThanOrEqual(4_000 + allowance(1));
      const page = extractResponse.parse(result.structuredContent).results[0]!;
      const cut = CUT.exec(page.markdown!);
      pieces.push(page.markdown!.replace(CUT, ''));
      // The model reads where to go on from the Markdown it was given.
      const next = cut ? Number(cut[1]) : undefined;
      if (next !== undefined) expect(text).toContain(`start_char=${next}`);
      expect(page.truncated).toBe(next !== undefined);
      start = next;
    }
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join('')).toBe(whole);
    const usage = (await client.call('usage')).structuredContent as { credits: { balance: number } };
    expect(usage.credits.balance).toBe(before.balance - 1);
  });

  it("web_extract with query: the page's passages about it, under their heading, within the passages' budget", async () => {
    const result = await client.call('web_extract', { urls: [h.pages.url('/long.html')], query: 'lighthouse keeper storm logbook' });
    const text = textOf(result);
    expect(text).toContain(LIGHTHOUSE);
    expect(text).toContain('Section 33');
    expect(text.length).toBeLessThanOrEqual(2_000 + allowance(1));
  });

  it('web_search with include_content: the pages share the default budget', async () => {
    const result = await client.call('web_search', { query: 'tide pages', include_content: true });
    const answer = searchResponse.parse(result.structuredContent);
    expect(answer.results.filter((r) => r.content !== undefined)).toHaveLength(2);
    expect(answer.results[0]!.total_chars).toBe(whole.length);
    expect(textOf(result).length).toBeLessThanOrEqual(20_000 + allowance(2));
    expect(textOf(result)).toContain('Tide pools form where rocky shores');
  });

  it('web_search with a small max_chars stays within it', async () => {
    const result = await client.call('web_search', { query: 'tide pages', include_content: true, max_chars: 1_000 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result).length).toBeLessThanOrEqual(1_000 + allowance(2));
  });
});
