// Empty is not a delivery (issue 32, item 9): an extraction that gives no text fails alone as
// `error_type: 'empty'`, uncharged, as include_content reports the same page `content_error: empty`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { SearchResponse } from '../../src/types/index.js';
import { SHOP_SHELL } from '../convert/fixtures.js';
import { article, balance, type ExtractSetup, extractSetup, html, ORG, withOrgs } from './helpers.js';

const EMPTY_BODY = '<!doctype html><html><head><title>Nothing here</title></head><body>  </body></html>';
const SCRIPTS_ONLY =
  '<html><head><title>App</title><style>body{color:red}</style></head><body><div id="root"></div><script>render("lots of text in code")</script><noscript>Enable JavaScript</noscript></body></html>';

describe('empty pages', () => {
  let s: ExtractSetup;
  beforeAll(async () => {
    s = await extractSetup(
      {
        '/empty-body': html(EMPTY_BODY),
        '/scripts-only': html(SCRIPTS_ONLY),
        '/blank': html(''),
        '/shell': html(SHOP_SHELL),
        '/article': html(article('Real')),
      },
      (server) => ({
        sources: [scriptedSource('scripted', () => ({ results: [{ title: 'E', url: server.url('/empty-body'), snippet: '' }] }))],
      }),
    );
    await withOrgs(s.engine, 100);
  });
  afterAll(() => s.close());

  it('an empty <body> fails alone as empty with its status, uncharged, beside a page that is delivered and charged', async () => {
    const before = await balance(s.engine);
    const res = await s.engine.extract({ urls: [s.server.url('/empty-body'), s.server.url('/article')] }, ORG);
    expect(res.results[0]).toMatchObject({ success: false, markdown: '', error_type: 'empty', status_code: 200 });
    expect(res.results[0]?.error).toMatch(/no text/);
    expect(res.results[1]).toMatchObject({ success: true });
    expect(res.metadata).toMatchObject({ successful_crawls: 1, failed_crawls: 1, credits_used: 1 });
    expect(await balance(s.engine)).toBe(before - 1);
    // No window opened for the empty page: asking again is not a free repeat (and still uncharged).
    const again = await s.engine.extract({ urls: [s.server.url('/empty-body')] }, ORG);
    expect(again.metadata).toMatchObject({ credits_used: 0 });
    expect(again.metadata.cached_free).toBeUndefined();
  });

  it('the same page through include_content is content_error empty: both say empty, neither charges for it', async () => {
    const res = (await s.engine.search({ q: 'anything', include_content: true }, ORG)) as SearchResponse;
    expect(res.results[0]?.content_error).toBe('empty');
    expect(res.metadata.content_delivered).toBe(0);
  });

  it('a page of chrome only (no main content) is empty in Markdown', async () => {
    const res = await s.engine.extract({ urls: [s.server.url('/shell'), s.server.url('/blank')] }, ORG);
    expect(res.results.map((r) => r.error_type ?? 'ok')).toEqual(['empty', 'empty']);
    expect(res.metadata.credits_used).toBe(0);
  });

  it('html format: a blank document, or a body with no text outside scripts and styles, is empty; a page with any text is delivered as fetched', async () => {
    const before = await balance(s.engine);
    const urls = ['/empty-body', '/scripts-only', '/blank', '/shell'].map((p) => s.server.url(p));
    const res = await s.engine.extract({ urls, format: 'html' }, ORG);
    expect(res.results.map((r) => r.error_type ?? 'ok')).toEqual(['empty', 'empty', 'empty', 'ok']);
    expect(res.results[0]).toMatchObject({ success: false, html: '', status_code: 200 });
    expect(res.results[3]?.html).toBe(SHOP_SHELL); // the footer's links are text: the HTML is what was asked for
    expect(res.metadata.credits_used).toBe(1);
    expect(await balance(s.engine)).toBe(before - 1);
  });
});
