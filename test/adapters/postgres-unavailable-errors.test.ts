// Which PostgreSQL failures become LedgerUnavailableError (503, retryable) and which stay as they are.
// The real ones (a refused connection, a cut connection) are in postgres-unavailable.test.ts; this
// covers the rest of the table without needing a server to fail in each way.

import { describe, expect, it } from 'vitest';
import { asUnavailable, isUnavailable, mayHaveRun } from '../../src/adapters/postgres/unavailable.js';
import { LedgerUnavailableError } from '../../src/errors.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('PostgreSQL errors that mean "unavailable, retry"', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['DNS failure', withCode('ENOTFOUND')],
    ['connection exception class 08', withCode('08006')],
    ['server shutting down', withCode('57P01')],
    ['server starting up', withCode('57P03')],
    ['too many connections', withCode('53300')],
    ['deadlock', withCode('40P01')],
    ['serialization failure', withCode('40001')],
    ['lock timeout', withCode('55P03')],
    ['statement timeout', withCode('57014')],
    ['connection terminated (pg, no code)', new Error('Connection terminated unexpectedly')],
    ['pool timeout (pg, no code)', new Error('timeout exceeded when trying to connect')],
    ['reply timeout (pg query_timeout, no code)', new Error('Query read timeout')],
    ['refused on every address', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')],
    ['wrapped', new Error('outer', { cause: withCode('ECONNRESET') })],
  ])('%s', (_, error) => {
    expect(isUnavailable(error)).toBe(true);
    const mapped = asUnavailable(error) as LedgerUnavailableError;
    expect(mapped).toBeInstanceOf(LedgerUnavailableError);
    expect(mapped.body).toMatchObject({ code: 'ledger_unavailable', retryable: true });
    expect(mapped.cause).toBe(error);
  });

  it.each([
    ['syntax error', withCode('42601')],
    ['unique violation', withCode('23505')],
    ['foreign key violation', withCode('23503')],
    ['check violation', withCode('23514')],
    ['a plain error', new Error('websift/postgres: schema "x" is at version 9, newer than this websift understands (1)')],
    ['not an object', 'ECONNREFUSED'],
  ])('not %s', (_, error) => {
    expect(isUnavailable(error)).toBe(false);
    expect(asUnavailable(error)).toBe(error);
  });
});

describe('after which failures a settlement may have committed (its reply lost): the ledger reads it back', () => {
  it.each([
    ['connection cut after sending', new Error('Connection terminated unexpectedly'), true],
    ['reply timeout', new Error('Query read timeout'), true],
    ['connection reset', withCode('ECONNRESET'), true],
    ['as the ledger wraps it', asUnavailable(new Error('Connection terminated unexpectedly')), true],
    ['the server answered an error (rolled back)', withCode('57014'), false],
    ['deadlock (rolled back)', asUnavailable(withCode('40P01')), false],
    ['refused: never connected', asUnavailable(withCode('ECONNREFUSED')), false],
    ['no connection in time', asUnavailable(new Error('timeout exceeded when trying to connect')), false],
    ['connect timed out', new Error('Connection terminated due to connection timeout'), false],
    ['refused on every address', new AggregateError([withCode('ECONNREFUSED'), withCode('ENETUNREACH')], ''), false],
  ])('%s', (_, error, expected) => {
    expect(mayHaveRun(error)).toBe(expected);
  });
});
