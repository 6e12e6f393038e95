import { describe, expect, it } from 'vitest';
import { apiKeyOf } from '../../src/http/auth.js';
import type { ApiRequest } from '../../src/http/exchange.js';

/** The rule apiKeyOf applies to Authorization (RFC 9110 scheme, any case; one token): its fast path must agree. */
const reference = (value: string): string | null => /^bearer[ \t]+(\S+)[ \t]*$/i.exec(value.trim())?.[1] ?? null;

const requestWith = (authorization: string): ApiRequest => ({
  method: 'GET',
  url: 'http://localhost/api/search',
  headers: { get: (name) => (name === 'authorization' ? authorization : null) },
  body: null,
});

describe('apiKeyOf, Authorization: Bearer', () => {
  it('reads the same key as the scheme rule, for plain and unusual header values', () => {
    const values = [
      'Bearer ws_key',
      'Bearer  ws_key',
      'Bearer\tws_key',
      'Bearer ws_key ',
      'Bearer ws_key\t',
      ' Bearer ws_key',
      'bearer ws_key',
      'BEARER ws_key',
      'Bearer ws key',
      'Bearer ws\u00a0key',
      'Bearer ws_ké',
      'Bearer ',
      'Bearer',
      'Bearerws_key',
      'Basic ws_key',
      'Bearer a',
      'Bearer !"$%&\'()*+,-./~',
    ];
    for (const value of values) expect([value, apiKeyOf(requestWith(value), true)]).toEqual([value, reference(value)]);
  });
});
