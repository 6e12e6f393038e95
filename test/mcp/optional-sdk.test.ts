// The SDK is an optional peer dependency: websift/mcp imports it only when a server or handler is made,
// and says how to install it when it is missing.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { importOrExplain, MCP_MISSING } from '../../src/mcp/sdk.js';
import { ROOT } from '../cli/run-cli.js';

const src = (path: string) => join(ROOT, 'src', path);
const hook = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module';
   register('data:text/javascript,' + encodeURIComponent("import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { if (/^@modelcontextprotocol\\\\//.test(s)) writeSync(2, 'MCP-SDK-LOADED ' + s + '\\\\n'); return next(s, c); }"));`,
)}`;

describe('the optional MCP SDK', () => {
  it('a missing package is an error that says what to install', async () => {
    const missing = importOrExplain(() => import('@modelcontextprotocol/not-a-package' as string));
    await expect(missing).rejects.toThrow(MCP_MISSING);
    expect(MCP_MISSING).toContain('npm install @modelcontextprotocol/server');
  });

  it('other import failures are not disguised', async () => {
    const broken = importOrExplain(() => Promise.reject(new SyntaxError('bad module')));
    await expect(broken).rejects.toThrow('bad module');
  });

  it('importing every entry, websift/mcp included, does not load it; making a server does', async () => {
    const child = `
      for (const entry of ${JSON.stringify(['index.ts', 'http/index.ts', 'mcp/index.ts'].map(src))}) await import(entry);
      process.stderr.write('IMPORTED\\n');
      const { createEngine } = await import(${JSON.stringify(src('index.ts'))});
      const { createMcpServer } = await import(${JSON.stringify(src('mcp/index.ts'))});
      const engine = createEngine({});
      await createMcpServer(engine, { organization: 'acme' });
      await engine.close();
    `;
    const { stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--import', hook, '--input-type=module', '-e', child],
      { cwd: ROOT, timeout: 60_000 },
    );
    const [before, after] = stderr.split('IMPORTED');
    expect(before, stderr).not.toContain('MCP-SDK-LOADED');
    expect(after, stderr).toContain('MCP-SDK-LOADED @modelcontextprotocol/server');
  }, 90_000);
});
