// engine.extract with stealth: true through the real Chromium: rendered content, 5 credits per
// success, failures free, free repeats keyed by mode, the stealth flags. Skipped without Chromium.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from '../render/processes.js';
import { balance, type ExtractSetup, extractSetup, html, ORG, withOrgs } from './helpers.js';

const SCRIPTED = `<!doctype html><html><head><title>Scripted</title></head><body><div id="app">Loading…</div>
<script>setTimeout(() => { document.getElementById('app').innerHTML =
  '<article><h1>Rendered headline</h1>' + '<p>This paragraph exists only after the script ran in a real browser engine.</p>'.repeat(8) + '</article>'; }, 50);</script>
</body></html>`;

describe.skipIf(!hasChromium)('extract with stealth: true', () => {
  let s: ExtractSetup;
  beforeAll(async () => {
    s = await extractSetup({ '/app': html(SCRIPTED), '/gone': html('gone', 404) }, { chromiumPath: CHROMIUM });
    await withOrgs(s.engine, 100);
  });
  afterAll(() => s.close());

  it('renders script-built pages that a plain extract cannot see', async () => {
    const plain = await s.engine.extract({ urls: [s.server.url('/app')] }, ORG);
    expect(plain.results[0]?.markdown).not.toContain('Rendered headline');
    const stealth = await s.engine.extract({ urls: [s.server.url('/app')], stealth: true }, ORG);
    expect(stealth.results[0]).toMatchObject({ success: true, stealth: true, status_code: 200 });
    expect(stealth.results[0]?.markdown).toContain('only after the script ran');
    // Page metadata is read from the rendered document, final_url is the browser's.
    expect(stealth.results[0]?.metadata).toEqual({ title: 'Scripted', final_url: s.server.url('/app') });
    expect(stealth.metadata).toMatchObject({ stealth: true, credits_used: 5, successful_crawls: 1 });
  });

  it('charges 5 per success, nothing for failures, and keys free repeats by mode', async () => {
    const app = s.server.url('/app?v=2');
    const before = await balance(s.engine);
    const first = await s.engine.extract({ urls: [app, s.server.url('/gone')], stealth: true }, ORG);
    expect(first.results.map((r) => r.error_type ?? 'ok')).toEqual(['ok', 'http']);
    expect(first.results.every((r) => r.stealth === true)).toBe(true);
    expect(first.metadata.credits_used).toBe(5);
    const repeat = await s.engine.extract({ urls: [app], stealth: true }, ORG);
    expect(repeat.metadata).toMatchObject({ credits_used: 0, cached_free: 1, stealth: true });
    const normal = await s.engine.extract({ urls: [app] }, ORG);
    expect(normal.metadata.credits_used).toBe(1);
    expect(normal.metadata.stealth).toBeUndefined();
    expect(await balance(s.engine)).toBe(before - 6);
  });
});
