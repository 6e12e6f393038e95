// The defaults that point users somewhere (User-Agent, deprecation Link) point at pages that exist,
// and the engine's allowEndpoints opens exactly the listed loopback endpoint.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler, DEFAULT_DEPRECATION_LINK } from '../../src/http/index.js';
import { createEngine, DEFAULT_USER_AGENT, type EngineOptions } from '../../src/index.js';
import { docsUrl, PACKAGE_VERSION, REPOSITORY_URL } from '../../src/project.js';
import { DEFAULT_USER_AGENT as SOURCES_USER_AGENT } from '../../src/sources/http.js';
import { ManualClock, type PageServer, startPageServer } from '../../src/testing/index.js';
import type { Engine } from '../../src/types/index.js';

const root = resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  repository: { url: string };
  homepage: string;
  bugs: { url: string };
};

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces → '-'. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (file: string): string[] =>
  [
    ...readFileSync(join(root, file), 'utf8')
      .replace(/^```[\s\S]*?^```/gm, '')
      .matchAll(/^#{1,6}\s+(.+)$/gm),
  ].map((m) => anchorOf(m[1]!.replace(/`/g, '')));

const page = `<!doctype html><html><head><title>UA</title></head><body><article><h1>UA</h1>
  <p>${'A paragraph long enough to count as the main content of this page. '.repeat(6)}</p></article></body></html>`;

let server: PageServer | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await server?.close();
  engine = server = undefined;
});

/** Extracts `paths` from a fresh loopback server with an engine made by `options(server)`. */
async function extractWith(options: (s: PageServer) => EngineOptions, paths = ['/page']) {
  server = await startPageServer({
    '/page': { body: page },
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
  });
  engine = createEngine({ clock: new ManualClock('2026-10-01T00:00:00Z'), rateLimit: false, ...options(server) });
  await engine.admin.createOrganization('acme', { credits: 10 });
  const urls = paths.map((p) => (p.startsWith('http') ? p : server!.url(p)));
  const res = await engine.extract({ urls }, { organization: 'acme' });
  return {
    errors: res.results.map((r) => r.error_type ?? null),
    agents: server.requests.map((r) => `${r.path} ${String(r.headers['user-agent'])}`),
  };
}

describe('project links', () => {
  it('package.json names the repository the defaults point at', () => {
    expect(pkg.version).toBe(PACKAGE_VERSION);
    expect(pkg.repository.url).toBe(`git+${REPOSITORY_URL}.git`);
    expect(pkg.homepage.startsWith(REPOSITORY_URL)).toBe(true);
    expect(pkg.bugs.url).toBe(`${REPOSITORY_URL}/issues`);
  });

  it('the default deprecation link is a section of docs/http.md that exists', () => {
    expect(DEFAULT_DEPRECATION_LINK).toBe(docsUrl('http.md#deprecated-search-parameters'));
    const [file, anchor] = DEFAULT_DEPRECATION_LINK.slice(`${REPOSITORY_URL}/blob/main/`.length).split('#');
    expect(anchorsOf(file!)).toContain(anchor);
  });

  it('the default User-Agent names websift (the robots.txt product token), its version and the repository', () => {
    expect(DEFAULT_USER_AGENT).toBe(`websift/${PACKAGE_VERSION} (+${REPOSITORY_URL})`);
    expect(SOURCES_USER_AGENT).toBe(DEFAULT_USER_AGENT);
  });
});

describe('the deprecation Link header', () => {
  const call = async (options?: { deprecationLink?: string }) => {
    engine = createEngine({ clock: new ManualClock('2026-03-01T00:00:00Z') });
    await engine.admin.createOrganization('acme', { credits: 5 });
    const key = await engine.admin.createApiKey('acme');
    const handle = createFetchHandler(engine, options);
    return handle(new Request('http://localhost/api/search?q=x&engine=google', { headers: { authorization: `Bearer ${key}` } }));
  };

  it('carries the default link, or the configured one', async () => {
    expect((await call()).headers.get('link')).toBe(`<${DEFAULT_DEPRECATION_LINK}>; rel="deprecation"`);
    await engine?.close();
    expect((await call({ deprecationLink: 'https://api.example/deprecations#engine' })).headers.get('link')).toBe(
      '<https://api.example/deprecations#engine>; rel="deprecation"',
    );
  });

  it('refuses a link that is not an absolute URL or would break the header', async () => {
    engine = createEngine();
    for (const bad of ['/relative', 'https://x.example/a>b', 'https://x.example/\r\nSet-Cookie: a=b']) {
      expect(() => createFetchHandler(engine!, { deprecationLink: bad }), bad).toThrow(/deprecationLink must be an absolute URL/);
    }
  });
});

describe('the User-Agent of page fetches', () => {
  it('is the default on robots.txt and the page, or the configured one', async () => {
    const allow = (s: PageServer): EngineOptions => ({ allowEndpoints: [`127.0.0.1:${s.port}`] });
    const plain = await extractWith(allow);
    expect(plain.errors).toEqual([null]);
    expect(plain.agents).toEqual([`/robots.txt ${DEFAULT_USER_AGENT}`, `/page ${DEFAULT_USER_AGENT}`]);
    await engine?.close();
    await server?.close();

    const custom = await extractWith((s) => ({ ...allow(s), userAgent: 'acmebot/2.0 (+https://acme.example/bot)' }));
    expect(custom.errors).toEqual([null]);
    expect(custom.agents).toEqual(['/robots.txt acmebot/2.0 (+https://acme.example/bot)', '/page acmebot/2.0 (+https://acme.example/bot)']);
  });

  it('refuses a user agent that is empty or holds control characters', () => {
    for (const userAgent of ['', '  ', 'bot\r\nX-Injected: 1']) {
      expect(() => createEngine({ userAgent }), JSON.stringify(userAgent)).toThrow(/userAgent must be a non-empty string/);
    }
  });
});

describe('allowEndpoints', () => {
  it('opens exactly the listed ip:port; other loopback ports stay blocked', async () => {
    const res = await extractWith((s) => ({ allowEndpoints: [`127.0.0.1:${s.port}`], robots: false }), ['/page', 'http://127.0.0.1:9/x']);
    expect(res.errors).toEqual([null, 'blocked_address']);
  });

  it('without it, the loopback server is blocked and sees no request', async () => {
    const res = await extractWith(() => ({ robots: false }));
    expect(res.errors).toEqual(['blocked_address']);
    expect(res.agents).toEqual([]);
  });

  it('accepts IPv4 and bracketed IPv6 endpoints and refuses host names and malformed entries, naming them', () => {
    for (const ok of [['127.0.0.1:8080'], ['[::1]:8080', '[0:0:0:0:0:0:0:1]:443', '[::ffff:10.0.0.2]:80'], []]) {
      expect(() => createEngine({ allowEndpoints: ok }), ok.join()).not.toThrow();
    }
    const cases: [unknown, RegExp][] = [
      [['searx.internal:8888'], /"searx\.internal:8888" names a host, not an IP address/],
      [['127.0.0.1'], /"127\.0\.0\.1" is not an ip:port pair/],
      [['::1:8080'], /is not an ip:port pair/],
      [['127.0.0.1:0'], /port outside 1–65535/],
      [['127.0.0.1:70000'], /port outside 1–65535/],
      [['[nope]:80'], /IPv6 address/],
      [[8080], /is not a string/],
      ['127.0.0.1:8080', /allowEndpoints must be an array/],
    ];
    for (const [allowEndpoints, message] of cases) {
      expect(() => createEngine({ allowEndpoints } as EngineOptions), JSON.stringify(allowEndpoints)).toThrow(message);
    }
  });
});
