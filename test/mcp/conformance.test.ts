// The MCP conformance suite (@modelcontextprotocol/conformance, server mode) against /mcp of a real
// `websift serve`, with the recorded baseline of expected failures (conformance-baseline.yml, each
// explained). The suite's client sends no credentials, so a loopback proxy adds the API key.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, startCli, waitForLine } from '../cli/run-cli.js';
import { cliFixture } from './cli-fixture.js';

const CONFORMANCE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = join(ROOT, 'test/mcp/conformance-baseline.yml');

it('passes the conformance suite but for the recorded baseline', async () => {
  const f = await cliFixture();
  const serve = startCli(['serve', '--port', '0', ...f.storage]);
  const proxy = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, authorization: `Bearer ${f.key}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  let target: URL;
  try {
    const [, url] = (await waitForLine(serve, /listening on (http:\/\/127\.0\.0\.1:\d+)/)) as unknown as [string, string];
    target = new URL(url);
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
    // Its results/ folder goes to a temporary directory.
    const suite = spawn(process.execPath, [CONFORMANCE, 'server', '--url', endpoint, '--expected-failures', BASELINE], {
      cwd: mkdtempSync(join(tmpdir(), 'websift-conformance-')),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    suite.stdout.on('data', (d: Buffer) => (output += d.toString()));
    suite.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const [code] = await once(suite, 'exit');
    expect(output).toMatch(/server-initialize: 1 passed, 0 failed/);
    expect(output).toMatch(/tools-list: 1 passed, 0 failed/);
    expect(code, output.slice(-3000)).toBe(0);
  } finally {
    proxy.close();
    serve.kill('SIGTERM');
    await once(serve, 'exit');
    await f.close();
  }
}, 120_000);
