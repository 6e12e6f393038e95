// A request the server drops at the end of its grace is an error to its client, so it is never charged:
// the server aborts the dropped requests' calls before it destroys their connections, and the engine
// checks the call's signal right before it charges. Driven in-process by the source's release.

import { Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer } from '../../src/cli/server.js';
import { createEngine } from '../../src/index.js';
import type { Engine, SearchSource, SourceAnswer } from '../../src/types/index.js';
import { tempDb } from './run-cli.js';

/** A source whose answer waits for release(); `asked` resolves when the search reaches it. */
function heldSource() {
  let release!: () => void;
  let asked!: () => void;
  const reached = new Promise<void>((resolve) => (asked = resolve));
  const source: SearchSource = {
    id: 'held',
    search: () =>
      new Promise<SourceAnswer>((resolve) => {
        release = () => resolve({ results: [{ title: 'Held page', url: 'https://held.test/page', snippet: 'It waited' }] });
        asked();
      }),
  };
  return { source, reached, release: () => release() };
}

let engine: Engine | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await engine?.close();
  engine = undefined;
});

describe('startServer close(grace): a dropped request', () => {
  it('is not charged when its source answers right as the connection is dropped', async () => {
    const held = heldSource();
    const database = tempDb();
    engine = createEngine({ database, sources: [held.source], rateLimit: false });
    await engine.admin.createOrganization('acme', { credits: 10 });
    const key = await engine.admin.createApiKey('acme');
    const lines: string[] = [];
    const server = await startServer({ engine, host: '127.0.0.1', port: 0, log: (line) => lines.push(line) });
    const search = fetch(`${server.url}/api/search?q=held`, { headers: { authorization: `Bearer ${key}` } }).catch((e: Error) => e);
    await held.reached;
    // The source answers in the very turn the server drops the connections (what a release just
    // after the `dropped` line could hit in a child process, 1 run in ~14).
    const drop = Server.prototype.closeAllConnections;
    vi.spyOn(Server.prototype, 'closeAllConnections').mockImplementation(function (this: Server) {
      drop.call(this);
      held.release();
    });
    expect(await server.close(0)).toBe(1);
    expect(await search).toBeInstanceOf(Error);
    await engine.close(); // lets the abandoned search finish (and charge, if it was going to)
    engine = createEngine({ database, sources: [], rateLimit: false });
    const usage = await engine.usage({ organization: 'acme' });
    expect(usage.credits).toEqual({ balance: 10, used: 0 });
    expect(usage.requests.total).toBe(0);
    expect(lines.filter((line) => line.startsWith('error'))).toEqual([]); // a dropped request is no server fault
  });
});
