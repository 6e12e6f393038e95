// Renderer rules that hold before any browser is involved; these run on machines without Chromium too.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchFailure } from '../../src/ports/fetcher.js';
import { launchFailure } from '../../src/render/browser-host.js';
import { createPlaywrightRenderer } from '../../src/render/index.js';
import { pages, type Served, serve } from './fixture-server.js';
import { chromiumProcesses } from './processes.js';

const options = () => ({ signal: new AbortController().signal, maxBytes: 10 * 1024 * 1024 });

async function failureOf(promise: Promise<unknown>): Promise<FetchFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchFailure);
    return error as FetchFailure;
  }
  throw new Error('expected a FetchFailure');
}

describe('renderer without a browser', () => {
  let site: Served;
  beforeAll(async () => {
    site = await serve(pages(() => 'http://127.0.0.1:9'));
  });
  afterAll(() => site.close());

  it('a missing browser is a per-request error naming the Debian package, not a crash', async () => {
    const renderer = createPlaywrightRenderer({
      executablePath: '/nonexistent/chromium',
      allowEndpoints: [`127.0.0.1:${site.port}`],
    });
    const before = chromiumProcesses().length;
    const failure = await failureOf(renderer.render(`${site.origin}/plain`, options()));
    expect(failure.type).toBe('network');
    expect(failure.message).toContain('/nonexistent/chromium');
    expect(failure.message).toMatch(/apt-get install chromium/);
    // The next request gets the same clear error (nothing cached in a broken state), and nothing was started.
    expect((await failureOf(renderer.render(`${site.origin}/plain`, options()))).type).toBe('network');
    expect(renderer.launches).toBe(0);
    expect(chromiumProcesses().length).toBe(before);
    await renderer.close();
  });

  it('a browser that cannot start is a per-request error too, and is retried on the next request', async () => {
    const renderer = createPlaywrightRenderer({
      executablePath: '/bin/false',
      allowEndpoints: [`127.0.0.1:${site.port}`],
      launchTimeoutMs: 10_000,
    });
    const failure = await failureOf(renderer.render(`${site.origin}/plain`, options()));
    expect(failure).toMatchObject({ type: 'network' });
    expect(failure.message).toMatch(/^Chromium could not be started/);
    expect((await failureOf(renderer.render(`${site.origin}/plain`, options()))).message).toMatch(/^Chromium could not be started/);
    expect(renderer.launches).toBe(0);
    await renderer.close();
  });

  it('refuses invalid URLs, and binary extensions before any request', async () => {
    const renderer = createPlaywrightRenderer({ executablePath: '/nonexistent/chromium', allowEndpoints: [`127.0.0.1:${site.port}`] });
    expect((await failureOf(renderer.render('ftp://example.com/file', options()))).type).toBe('invalid_url');
    expect((await failureOf(renderer.render('not a url', options()))).type).toBe('invalid_url');
    const seen = site.requests.length;
    expect((await failureOf(renderer.render(`${site.origin}/report.PDF`, options()))).type).toBe('unsupported_content_type');
    expect(site.requests.length).toBe(seen);
    await renderer.close();
  });

  it('checks robots.txt (websift product token) before launching a browser', async () => {
    const renderer = createPlaywrightRenderer({ executablePath: '/nonexistent/chromium', allowEndpoints: [`127.0.0.1:${site.port}`] });
    const failure = await failureOf(renderer.render(`${site.origin}/private/page`, options()));
    expect(failure.type).toBe('robots_disallowed');
    expect(site.requests).toContain('/robots.txt');
    expect(site.requests).not.toContain('/private/page');
    await renderer.close();
  });

  it('refuses a loopback page unless its endpoint is allowed', async () => {
    const renderer = createPlaywrightRenderer({ executablePath: '/nonexistent/chromium' });
    const seen = site.requests.length;
    expect((await failureOf(renderer.render(`${site.origin}/plain`, options()))).type).toBe('blocked_address');
    expect((await failureOf(renderer.render('http://169.254.169.254/latest/', options()))).type).toBe('blocked_address');
    expect(site.requests.length).toBe(seen);
    await renderer.close();
  });

  it('a render after close() fails clearly', async () => {
    const renderer = createPlaywrightRenderer({ executablePath: '/nonexistent/chromium' });
    await renderer.close();
    const failure = await failureOf(renderer.render(`${site.origin}/plain`, options()));
    expect(failure.message).toMatch(/closed/);
  });

  it('refuses bad options with a clear error', () => {
    expect(() => createPlaywrightRenderer({ concurrency: 0 })).toThrow(/concurrency/);
    expect(() => createPlaywrightRenderer({ timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => createPlaywrightRenderer({ settleMs: Number.NaN })).toThrow(/settleMs/);
  });
});

describe('without the optional playwright-core package', () => {
  it('names the package and its install command', () => {
    // Node's own resolution failure, from a directory outside this project (plain node, not vitest).
    const dir = mkdtempSync(join(tmpdir(), 'websift-no-playwright-'));
    const probe = "import('playwright-core').catch((e) => console.log(JSON.stringify({ code: e.code, message: e.message })))";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: dir, encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    const { code, message } = JSON.parse(out) as { code: string; message: string };
    expect(code).toBe('ERR_MODULE_NOT_FOUND');
    expect(launchFailure(Object.assign(new Error(message), { code }))).toBe(
      'Stealth rendering needs the optional package playwright-core: npm install playwright-core',
    );
    expect(launchFailure(new Error('spawn EACCES\nmore'))).toBe('Chromium could not be started: spawn EACCES');
  });
});
