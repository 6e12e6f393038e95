// `websift mcp` spawned as an agent client starts it: the SDK's stdio clients, both generations.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractResponse, searchResponse, usageResponse } from '../../src/schema/index.js';
import { ROOT } from '../cli/run-cli.js';
import { type CliFixture, cliFixture } from './cli-fixture.js';
import { GENERATIONS, stdioClient } from './clients.js';
import { textOf } from './harness.js';

const MAIN = join(ROOT, 'src/cli/main.ts');
const ENV = { ...(process.env as Record<string, string>), WEBSIFT_DB: '' };

let f: CliFixture;
beforeAll(async () => {
  f = await cliFixture();
});
afterAll(() => f.close());

describe.each(GENERATIONS)('websift mcp over stdio (%s client)', (generation) => {
  it('lists the tools, searches, extracts and reports usage, billed to the only organization', async () => {
    const { client, stderr } = await stdioClient(generation, process.execPath, ['--import', 'tsx', MAIN, 'mcp', ...f.storage], ENV, ROOT);
    try {
      expect((await client.tools()).map((t) => t.name).sort()).toEqual(['usage', 'web_extract', 'web_search']);
      const before = await f.balance();
      const search = await client.call('web_search', { query: 'cats' });
      expect(searchResponse.parse(search.structuredContent).results[0]!.url).toBe('https://cats.test/');
      expect(textOf(search)).toContain('All about cats');
      const page = await client.call('web_extract', { urls: [f.pages.url('/short.html')] });
      expect(extractResponse.parse(page.structuredContent).results[0]!.success).toBe(true);
      expect(textOf(page)).toContain('Tide pools form where rocky shores');
      const usage = usageResponse.parse((await client.call('usage')).structuredContent);
      expect(usage.organization).toBe('acme');
      const charged = (r: typeof search) => (r.structuredContent!['metadata'] as { credits_used: number }).credits_used;
      expect(usage.credits.balance).toBe(before - charged(search) - charged(page));
      expect(stderr()).toMatch(/serving organization acme on stdio/);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('websift mcp, the process', () => {
  it('writes only JSON-RPC on stdout, logs on stderr, takes --max-chars, and exits 0 when the client closes stdin', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'mcp', '--max-chars', '5000', ...f.storage], {
      cwd: ROOT,
      env: ENV,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const answers = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (stdout.split('\n').length > n ? resolve() : child.stdout.once('data', check));
        check();
      });
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    await answers(1);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await answers(2);
    child.stdin.end();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'websift' } } });
    const tools = (
      JSON.parse(lines[1]!) as { result: { tools: { name: string; inputSchema: { properties: Record<string, { default?: unknown }> } }[] } }
    ).result.tools;
    expect(tools.find((t) => t.name === 'web_extract')!.inputSchema.properties['max_chars']!.default).toBe(5000);
    expect(stderr).toMatch(/serving organization acme on stdio/);
    expect(stderr).toMatch(/stdin closed, stopping/);
  }, 30_000);

  it('asks for --org when the database holds several organizations', async () => {
    const { mainCaptured } = await import('../cli/in-process.js');
    const other = await cliFixture();
    try {
      await mainCaptured(['org', 'create', 'second', ...other.storage]);
      const result = await mainCaptured(['mcp', ...other.storage]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/2 organizations .*choose one with --org/);
      expect(result.stdout).toBe('');
    } finally {
      await other.close();
    }
  });
});
