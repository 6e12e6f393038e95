import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceError } from '../../src/core/router/source-error.js';
import { retryAfterMs, send } from '../../src/sources/http.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type FixtureServer, startFixtureServer } from './fixture-server.js';
import { rejection } from './helpers.js';

describe('send', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer((req) => {
      if (req.url.pathname === '/declared-huge')
        return { status: 200, headers: { 'content-length': String(20 * 1024 * 1024) }, hang: true };
      if (req.url.pathname === '/streamed-huge') return { status: 200, body: 'x'.repeat(9 * 1024 * 1024) };
      return { status: 200, body: 'ok', headers: { 'content-type': 'text/plain' } };
    });
  });
  afterAll(() => server.close());
  const signal = () => new AbortController().signal;

  it('sends the user agent and caller headers', async () => {
    const reply = await send('t', { userAgent: 'custom/1', headers: { 'X-Proxy-Auth': 'p' } }, { url: `${server.baseUrl}/ok` }, signal());
    expect(reply).toMatchObject({ status: 200, text: 'ok' });
    expect(server.requests.at(-1)!.headers).toMatchObject({ 'user-agent': 'custom/1', 'x-proxy-auth': 'p' });
  });

  it('refuses a body declared over 8 MiB before reading it, and one streamed over it', async () => {
    expect(await rejection(send('t', {}, { url: `${server.baseUrl}/declared-huge` }, signal()))).toMatchObject({ reason: 'bad_response' });
    const streamed = await rejection(send('t', {}, { url: `${server.baseUrl}/streamed-huge` }, signal()));
    expect(streamed).toBeInstanceOf(SourceError);
    expect(streamed).toMatchObject({ reason: 'bad_response' });
  });
});

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP-dates against the clock; ignores garbage', () => {
    const clock = new ManualClock('2026-03-01T12:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '7' }), clock)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 12:00:30 GMT' }), clock)).toBe(30_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 11:00:00 GMT' }), clock)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), clock)).toBeUndefined();
    expect(retryAfterMs(new Headers(), clock)).toBeUndefined();
  });
});
