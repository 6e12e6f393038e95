// `websift serve`'s access log with requests in flight together: each line names its own request's
// organization, credits, sources and fallback (the log finds a request's record from the channel
// contexts, which name their request, not from an async context).

import { get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CallTrace, channels, HttpTrace, noteSource } from '../../src/channels.js';
import { createRequestLog, jsonString, tenthsText } from '../../src/cli/request-log.js';
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

  it('subscribes to websift:http and the calls only: no source call is traced for the log (its sources come from the search)', () => {
    const requestLog = createRequestLog({ format: 'json', stream: { write: () => {} }, say: () => {} });
    cleanup.push(() => requestLog.close());
    expect([channels.http, channels.search, channels.extract].map((c) => c.hasSubscribers)).toEqual([true, true, true]);
    expect([channels.source, channels.page, channels.charge].map((c) => c.hasSubscribers)).toEqual([false, false, false]);
  });

  it('writes each line as pino would, valid JSON whatever the path holds, without the query', async () => {
    const engine = createEngine({ sources: [] });
    cleanup.push(() => engine.close());
    const lines: string[] = [];
    const requestLog = createRequestLog({ format: 'json', stream: { write: (line: string) => lines.push(line) }, say: () => {} });
    cleanup.push(() => requestLog.close());
    const server = await startServer({ engine, host: '127.0.0.1', port: 0, requestLog, log: () => {} });
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) =>
      get({ host: '127.0.0.1', port, path: '/a"b\\c?q=secret', headers: { 'x-request-id': 'odd-1' } }, (res) =>
        res.resume().on('end', resolve),
      ).on('error', reject),
    );
    await server.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('}\n')).toBe(true);
    const line = JSON.parse(lines[0]!);
    expect(Object.keys(line)).toEqual(['level', 'time', 'request_id', 'method', 'path', 'status', 'duration_ms', 'msg']);
    expect(line).toMatchObject({ level: 'info', request_id: 'odd-1', method: 'GET', status: 404, msg: 'request' });
    expect(line.path).toBe('/a"b\\c');
    expect(new Date(line.time).toISOString()).toBe(line.time);
    expect(lines[0]).not.toContain('secret');
  });

  it('writes every line as JSON.stringify would, when what repeats from the line before (route, organization, call) changes piece by piece', () => {
    const lines: string[] = [];
    const requestLog = createRequestLog({ format: 'json', stream: { write: (line: string) => lines.push(line) }, say: () => {} });
    cleanup.push(() => requestLog.close());
    type Call = { credits?: number; outcome?: string; sources?: [string, 'primary' | 'fallback' | 'hedge' | 'retry', boolean][] };
    // untraced: no websift:http context (a pre-handler's answer): the id is the reply's header, when it has one.
    type Request = { method: string; url: string; status: number; organization?: string; call?: Call; untraced?: { header?: string } };
    const search: Call = { credits: 1, outcome: 'success', sources: [['local', 'primary', true]] };
    const requests: Request[] = [
      { method: 'GET', url: '/api/search?q=a', status: 200, organization: 'acme', call: search },
      { method: 'GET', url: '/api/search?q=b', status: 200, organization: 'acme', call: search },
      { method: 'GET', url: '/api/search', status: 200, organization: 'acme', call: search },
      { method: 'GET', url: '/api/searchx?q=a', status: 200, organization: 'acme', call: search },
      { method: 'GET', url: '/api/search?q=a?b', status: 402, organization: 'acme', call: search },
      { method: 'POST', url: '/api/search', status: 402, organization: 'acme', call: search },
      { method: 'POST', url: '/api/sear', status: 402, organization: 'acme', call: search },
      { method: 'POST', url: '/api/sear', status: 402, organization: 'globex', call: search },
      { method: 'POST', url: '/api/sear', status: 402, organization: 'glo"bex', call: search },
      { method: 'GET', url: '/api/search', status: 200, organization: 'glo"bex', call: { ...search, credits: 2 } },
      { method: 'GET', url: '/api/search', status: 200, organization: 'glo"bex', call: { ...search, outcome: 'no_results' } },
      {
        method: 'GET',
        url: '/api/search',
        status: 200,
        organization: 'globex',
        call: { ...search, sources: [['other', 'primary', true]] },
      },
      {
        method: 'GET',
        url: '/api/search',
        status: 200,
        organization: 'globex',
        call: { ...search, sources: [['local', 'primary', false]] },
      },
      {
        method: 'GET',
        url: '/api/search',
        status: 200,
        organization: 'globex',
        call: {
          ...search,
          sources: [
            ['local', 'primary', true],
            ['local', 'retry', true],
          ],
        },
      },
      { method: 'GET', url: '/api/search', status: 200, organization: 'globex', call: { ...search, sources: [['', 'primary', true]] } },
      {
        method: 'GET',
        url: '/api/search',
        status: 200,
        organization: 'globex',
        call: { ...search, sources: [['local', 'fallback', false]] },
      },
      {
        method: 'GET',
        url: '/api/search',
        status: 200,
        organization: 'globex',
        call: {
          ...search,
          sources: [
            ['local', 'primary', true],
            ['backup', 'hedge', true],
          ],
        },
      },
      { method: 'GET', url: '/api/search', status: 200, organization: 'globex', call: { ...search, sources: [['local', 'hedge', true]] } },
      { method: 'GET', url: '/api/search', status: 200, organization: 'globex', call: { credits: 0, outcome: 'search_unavailable' } },
      { method: 'GET', url: '/api/search', status: 200, organization: 'globex', call: {} },
      { method: 'GET', url: '/api/search', status: 200, organization: 'globex' },
      { method: 'GET', url: '/api/search', status: 401 },
      { method: 'GET', url: '/api/search', status: 401, untraced: { header: 'hdr"1' } },
      { method: 'GET', url: '/api/search', status: 401, untraced: {} },
      { method: 'GET', url: '/api/search', status: 401 },
      { method: 'GET', url: '/api/search?q=a', status: 200, organization: 'acme', call: search },
    ];
    const expected: Record<string, unknown>[] = [];
    for (const [i, r] of requests.entries()) {
      const req = { method: r.method, url: r.url, headers: {} };
      const res = { headersSent: true, statusCode: r.status, getHeader: () => r.untraced?.header };
      let http!: HttpTrace;
      const entry = requestLog.open(req as never, res as never, () => {
        if (r.untraced) return;
        http = new HttpTrace(`id-${i}`, r.method, r.url.split('?')[0]!, 'other', undefined, undefined);
        channels.http.start.publish(http);
      });
      if (http) {
        http.organization = r.organization;
        http.status = r.status;
      }
      const id = r.untraced ? r.untraced.header : `id-${i}`;
      const line: Record<string, unknown> = {
        level: 'info',
        time: '',
        ...(id === undefined ? {} : { request_id: id }),
        method: r.method,
        path: r.url.split('?')[0],
        status: r.status,
      };
      line.duration_ms = 0;
      if (r.organization !== undefined) line.organization = r.organization;
      if (r.call) {
        const call = new CallTrace('search', r.organization ?? '', http);
        for (const [source, role, answered] of r.call.sources ?? []) noteSource(call, source, role, answered);
        call.credits = r.call.credits;
        call.outcome = r.call.outcome;
        channels.search.asyncEnd.publish(call);
        line.credits = r.call.credits ?? 0;
        if (r.call.outcome !== undefined) line.outcome = r.call.outcome;
        const answered = (r.call.sources ?? []).filter(([, , a]) => a).map(([s]) => s);
        const fallback = (r.call.sources ?? []).some(([, role]) => role === 'fallback');
        if (answered.length > 0 || fallback) Object.assign(line, { sources: answered, fallback });
        if ((r.call.sources ?? []).some(([, role]) => role === 'hedge')) line.hedged = true;
      }
      line.msg = 'request';
      expected.push(line);
      requestLog.done(entry);
    }
    expect(lines).toHaveLength(requests.length);
    for (const [i, text] of lines.entries()) {
      const { time, duration_ms } = JSON.parse(text);
      expect(text).toBe(`${JSON.stringify({ ...expected[i], time, duration_ms })}\n`);
    }
  });

  it("quotes a line's strings as JSON.stringify does, the plain ones without it", () => {
    const strings = [
      '',
      'GET',
      '/api/search',
      'a1b2c3d4-e5f6-4711-8899-aabbccddeeff',
      'a"b',
      'a\\b',
      'tab\there',
      '\u0000\u001f',
      '\u007f',
      'é',
      '日本',
      '\ud800',
      'x\udc00y',
      '😀',
      '\u2028',
    ];
    for (const s of strings) expect(jsonString(s)).toBe(JSON.stringify(s));
  });

  it('writes the duration as String(Math.round(ms * 10) / 10) does', () => {
    const values = [
      0,
      0.04,
      0.05,
      0.96,
      1,
      9.95,
      9.96,
      12.34,
      99.99,
      123456.78,
      1e7 + 0.33,
      2 ** 31 / 10 + 0.2,
      -0.3,
      -12.5,
      1e20,
      Number.NaN,
    ];
    for (let i = 0; i < 2000; i++) values.push(Math.random() * 10 ** (i % 7));
    for (const ms of values) expect(tenthsText(ms)).toBe(String(Math.round(ms * 10) / 10));
  });
});
