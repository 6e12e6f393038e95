// The handler's own bound on a slow request body (issue 32, item 10): mounted in someone else's
// node:http server, whose requestTimeout is 300 s by default, a client trickling an authenticated body
// is answered 408 `request_timeout` at `bodyTimeoutMs`, the connection is closed and nothing is charged.

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_TIMEOUT_MS, resolveOptions } from '../../src/http/options.js';
import { closeNodeServers, serveNodeApi } from './node-server.js';

afterEach(closeNodeServers);

// node:http's defaults (requestTimeout 300 s): only the handler can cut the body within the test.
const serve = serveNodeApi;

describe('bodyTimeoutMs', () => {
  it('defaults to 30 s, as docs/http.md says, and refuses a value that is not a positive integer', () => {
    expect(DEFAULT_BODY_TIMEOUT_MS).toBe(30_000);
    expect(resolveOptions().bodyTimeoutMs).toBe(30_000);
    expect(readFileSync(new URL('../../docs/http.md', import.meta.url), 'utf8')).toContain('| `bodyTimeoutMs` | 30,000 |');
    expect(() => resolveOptions({ bodyTimeoutMs: 0 })).toThrow(TypeError);
    expect(() => resolveOptions({ bodyTimeoutMs: 1.5 })).toThrow('bodyTimeoutMs must be a positive integer');
  });

  it('answers a trickled body 408 request_timeout, closes the connection and charges nothing', async () => {
    const s = await serve({ bodyTimeoutMs: 500 });
    const socket = connect(s.port, '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const closed = once(socket, 'close');
    const body = JSON.stringify({ q: 'cats' }).padEnd(1000, ' ');
    socket.write(`POST /api/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.key}\r\nContent-Length: ${body.length}\r\n\r\n`);
    let i = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed && i < body.length) socket.write(body[i++]!);
    }, 50); // 50 s to send it all
    try {
      await closed;
    } finally {
      clearInterval(trickle);
    }
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toMatch(/connection: close/i);
    const reply = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4));
    expect(reply).toMatchObject({ code: 'request_timeout', retryable: true });
    expect(i).toBeLessThan(body.length / 2);
    const usage = await s.engine.usage({ organization: 'acme' });
    expect(usage.credits).toEqual({ balance: 100, used: 0 });
    expect(usage.requests.total).toBe(0);
  });

  it('a body that arrives in time is served', async () => {
    const s = await serve({ bodyTimeoutMs: 5_000 });
    const res = await fetch(`http://127.0.0.1:${s.port}/api/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}` },
      body: JSON.stringify({ q: 'cats' }),
    });
    expect(res.status).toBe(200);
  });
});
