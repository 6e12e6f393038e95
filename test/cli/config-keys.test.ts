import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConfig } from '../../src/cli/config.js';
import { CONFIG_ENGINE_KEYS } from '../../src/cli/engine-keys.js';
import { closest } from '../../src/cli/suggest.js';
import { mainCaptured } from './in-process.js';
import { tempDb } from './run-cli.js';

const configError = (value: unknown): string => {
  try {
    checkConfig(value, 'c.json');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('config: unknown keys are refused, naming them and the nearest known key', () => {
  it('in "engine", with a suggestion when one is close', () => {
    expect(configError({ engine: { ratelimit: { limit: 1, window: 1 } } })).toMatch(
      /^config c\.json: "engine": unknown key 'ratelimit' \(did you mean 'rateLimit'\?\); known: /,
    );
    expect(configError({ engine: { alowPrivateNetwork: true, zzzzzz: 1 } })).toMatch(
      /unknown keys 'alowPrivateNetwork' \(did you mean 'allowPrivateNetwork'\?\), 'zzzzzz'; known/,
    );
  });

  it('engine options the config cannot carry say why', () => {
    expect(configError({ engine: { database: 'x.db' } })).toMatch(/'database' \(set with --database or \$WEBSIFT_DATABASE_URL\)/);
    expect(configError({ engine: { sources: [] } })).toMatch(/'sources' \(use the top-level "sources"\)/);
    expect(configError({ engine: { clock: {} } })).toMatch(/'clock' \(an object or function: only through createEngine in code\)/);
  });

  it('the engine keys come from EngineOptions (typed table): the JSON-settable ones are accepted', () => {
    const engine = {
      rateLimit: false,
      resultsPerSearch: 5,
      pageTimeoutMs: 1000,
      robots: false,
      userAgent: 'x',
      router: {},
      redisPrefix: 'p:',
    };
    expect(checkConfig({ engine }, 'c.json').engine).toEqual(engine);
    expect(CONFIG_ENGINE_KEYS).toContain('allowPrivateNetwork');
    expect(CONFIG_ENGINE_KEYS).not.toContain('fetcher');
  });

  it('at the top level and in source entries', () => {
    expect(configError({ localindex: false })).toMatch(
      /^config c\.json: unknown key 'localindex' \(did you mean 'localIndex'\?\); known: sources, localIndex, engine$/,
    );
    expect(configError({ sources: [{ type: 'brave', apikey: 'k' }] })).toMatch(
      /^config: sources\[0\] \(brave\): unknown key 'apikey' \(did you mean 'apiKey'\?\)/,
    );
    expect(configError({ sources: [{ type: 'searxng', baseUrl: 'http://x', fetch: 1 }] })).toMatch(
      /'fetch' \(a function or object: only in code\)/,
    );
  });

  it('suggests only near misses', () => {
    expect(closest('timout', ['timeout', 'robots'])).toBe('timeout');
    expect(closest('colour', ['timeout', 'robots'])).toBeUndefined();
  });
});

describe('config: source keys from the environment ("apiKeyEnv")', () => {
  let seen: { token: string | undefined; q: string | null }[] = [];
  const brave = createServer((req, res) => {
    seen.push({ token: req.headers['x-subscription-token'] as string | undefined, q: new URL(req.url!, 'http://x').searchParams.get('q') });
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ type: 'search', web: { results: [{ title: 'Hello', url: 'https://hello.test/', description: 'hello world' }] } }),
      );
  });
  let db: string;
  let config: string;
  beforeAll(async () => {
    brave.listen(0, '127.0.0.1');
    await once(brave, 'listening');
    db = tempDb();
    config = join(dirname(db), 'brave.json');
    const baseUrl = `http://127.0.0.1:${(brave.address() as AddressInfo).port}`;
    writeFileSync(
      config,
      JSON.stringify({ localIndex: false, sources: [{ type: 'brave', apiKeyEnv: 'WEBSIFT_TEST_BRAVE_KEY', baseUrl }] }),
    );
    await mainCaptured(['org', 'create', 'acme', '--credits', '5', '--db', db]);
  });
  afterAll(() => brave.close());

  it('a missing variable is a startup error naming it', async () => {
    delete process.env['WEBSIFT_TEST_BRAVE_KEY'];
    const res = await mainCaptured(['usage', '--db', db, '--config', config]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'websift: config: sources[0] (brave): apiKeyEnv names the environment variable WEBSIFT_TEST_BRAVE_KEY, which is unset or empty\n',
    );
  });

  it('the variable\'s value is the key; `search hello world` searches "hello world"', async () => {
    process.env['WEBSIFT_TEST_BRAVE_KEY'] = 'secret-from-env';
    try {
      seen = [];
      const res = await mainCaptured(['search', 'hello', 'world', '--db', db, '--config', config]);
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout).results[0]).toMatchObject({ url: 'https://hello.test/' });
      expect(seen).toEqual([{ token: 'secret-from-env', q: 'hello world' }]);
    } finally {
      delete process.env['WEBSIFT_TEST_BRAVE_KEY'];
    }
  });

  it('the key and its Env form together, or an Env value that is not a variable name, are refused', () => {
    expect(configError({ sources: [{ type: 'brave', apiKey: 'k', apiKeyEnv: 'K' }] })).toMatch(/give "apiKey" or "apiKeyEnv", not both/);
    expect(configError({ sources: [{ type: 'brave', apiKeyEnv: 'sk-123' }] })).toMatch(
      /"apiKeyEnv" must name an environment variable, e.g. "API_KEY"/,
    );
    // Only string options have an Env form.
    expect(configError({ sources: [{ type: 'wikipedia', namespacesEnv: 'NS' }] })).toMatch(/unknown key 'namespacesEnv'/);
  });
});
