import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedReason, checkUrlHost } from '../../src/fetch/address-policy.js';
import type { LookupFunction } from '../../src/fetch/guarded-connector.js';
import { createUndiciFetcher } from '../../src/fetch/undici-fetcher.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { failure, signal } from './helpers.js';

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade'],
    ['100.100.100.200', 'carrier-grade'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00:ec2::254', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::127.0.0.1', 'loopback'],
    ['::808:808', 'non-global'],
    ['64:ff9b::a00:1', 'NAT64 private'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 loopback'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo loopback'],
    ['2001:db8::1', 'reserved'],
    ['[::1]', 'loopback'],
    ['localhost', 'not an IP address'],
  ])('refuses %s (%s)', (ip, word) => {
    expect(blockedReason(ip)).toContain(word);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '::ffff:8.8.8.8',
  ])('allows the public address %s', (ip) => {
    expect(blockedReason(ip)).toBeNull();
  });
});

describe('checkUrlHost', () => {
  it.each([
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
  ])('refuses the literal host of %s', (url) => {
    expect(checkUrlHost(new URL(url))).not.toBeNull();
  });

  it('leaves names and public literals alone', () => {
    expect(checkUrlHost(new URL('http://example.com/'))).toBeNull();
    expect(checkUrlHost(new URL('http://8.8.8.8/'))).toBeNull();
    expect(checkUrlHost(new URL('http://[2606:4700:4700::1111]/'))).toBeNull();
  });
});

describe('the fetcher applies the policy before sending anything', () => {
  let server: PageServer;
  let other: PageServer;
  beforeAll(async () => {
    server = await startPageServer({ '/': { body: 'secret' } });
    other = await startPageServer({ '/': { body: 'other secret' } });
  });
  afterAll(async () => {
    await server.close();
    await other.close();
  });

  const evilLookup: LookupFunction = (hostname, _options, callback) => {
    if (hostname === 'evil.test') return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    if (hostname === 'mixed.test') {
      return callback(null, [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]);
    }
    return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
  };

  it('refuses localhost through the system resolver', async () => {
    const fetcher = createUndiciFetcher({});
    const before = server.requests.length;
    const err = await failure(fetcher.fetch(`http://localhost:${server.port}/`, { signal: signal(), maxBytes: 1000 }));
    expect(err.type).toBe('blocked_address');
    expect(server.requests.length).toBe(before);
    await fetcher.close?.();
  });

  it.each([
    (port: number) => `http://127.0.0.1:${port}/`,
    (port: number) => `http://2130706433:${port}/`,
    (port: number) => `http://0177.0.0.1:${port}/`,
    (port: number) => `http://0x7f.1:${port}/`,
    (port: number) => `http://[::ffff:127.0.0.1]:${port}/`,
    (port: number) => `http://0.0.0.0:${port}/`,
    (port: number) => `http://evil.test:${port}/`,
    (port: number) => `http://mixed.test:${port}/`,
  ])('refuses %s with blocked_address and no request', async (urlOf) => {
    const fetcher = createUndiciFetcher({ lookup: evilLookup });
    const before = server.requests.length;
    const url = urlOf(server.port);
    const err = await failure(fetcher.fetch(url, { signal: signal(), maxBytes: 1000 }));
    expect(err.type).toBe('blocked_address');
    expect(server.requests.length).toBe(before);
    await fetcher.close?.();
  });

  it('refuses ::1 literally', async () => {
    const fetcher = createUndiciFetcher({});
    const err = await failure(fetcher.fetch(`http://[::1]:${server.port}/`, { signal: signal(), maxBytes: 1000 }));
    expect(err.type).toBe('blocked_address');
    await fetcher.close?.();
  });

  it('allows exactly the allow-listed endpoint and nothing else on loopback', async () => {
    const fetcher = createUndiciFetcher({ allowEndpoints: [`127.0.0.1:${server.port}`], lookup: evilLookup });
    const ok = await fetcher.fetch(server.url('/'), { signal: signal(), maxBytes: 1000 });
    expect(Buffer.from(ok.body).toString()).toBe('secret');
    const before = other.requests.length;
    const err = await failure(fetcher.fetch(other.url('/'), { signal: signal(), maxBytes: 1000 }));
    expect(err.type).toBe('blocked_address');
    expect(other.requests.length).toBe(before);
    await fetcher.close?.();
  });

  it('an allow-listed endpoint does not open the same IP on another port to names', async () => {
    const fetcher = createUndiciFetcher({ allowEndpoints: [`127.0.0.1:${server.port}`], lookup: evilLookup });
    const before = other.requests.length;
    const err = await failure(fetcher.fetch(`http://evil.test:${other.port}/`, { signal: signal(), maxBytes: 1000 }));
    expect(err.type).toBe('blocked_address');
    expect(err.message).toMatch(/evil\.test resolves to a loopback/);
    expect(other.requests.length).toBe(before);
    await fetcher.close?.();
  });

  it('allowPrivateNetwork lets loopback through', async () => {
    const fetcher = createUndiciFetcher({ allowPrivateNetwork: true, lookup: evilLookup });
    const ok = await fetcher.fetch(`http://evil.test:${server.port}/`, { signal: signal(), maxBytes: 1000 });
    expect(ok.status).toBe(200);
    await fetcher.close?.();
  });
});
