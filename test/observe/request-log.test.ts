// `websift serve`'s access log with requests in flight together: each line names its own request's
// organization, credits, sources and fallback (the log finds a request's record from the channel
// contexts, which name their request, not from an async context).

import { afterEach, describe, expect, it } from 'vitest';
import { createRequestLog } from '../../src/cli/request-log.js';
import { startServer } from '../../src/cli/server.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { gatedSources } from './gated-sources.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('access log', () => {
  it('keeps the lines of two concurrent requests apart: each names its own sources, fallback and organization', async () => {
    const gated = gatedSources();
    const engine = createEngine({ sources: gated.sources, router: { retries: 0 } });
    cleanup.push(() => engine.close());
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.admin.createOrganization('globex', { credits: 10 });
    const acme = await engine.admin.createApiKey('acme');
    const globex = await engine.admin.createApiKey('globex');
    const lines: string[] = [];
    const requestLog = createRequestLog({ format: 'json', stream: { write: (line: string) => lines.push(line) }, say: () => {} });
    cleanup.push(() => requestLog.close());
    const server = await startServer({ engine, host: '127.0.0.1', port: 0, requestLog, log: () => {} });

    const search = (q: string, key: string, id: string) =>
      fetch(`${server.url}/api/search?q=${q}`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': id } });
    // A is held at its first source while B runs from start to end; then A falls back to the second source.
    const a = search('held', acme, 'req-a');
    await gated.holding;
    expect((await search('quick', globex, 'req-b')).status).toBe(200);
    gated.release();
    expect((await a).status).toBe(200);
    await server.close();

    const byId = Object.fromEntries(lines.map((l) => JSON.parse(l)).map((l) => [l.request_id, l]));
    expect(byId['req-a']).toMatchObject({ organization: 'acme', credits: 1, outcome: 'success', sources: ['backup'], fallback: true });
    expect(byId['req-b']).toMatchObject({ organization: 'globex', credits: 1, outcome: 'success', sources: ['slow'], fallback: false });
  });
});
