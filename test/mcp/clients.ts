// The SDK's own clients, both generations, over HTTP and stdio, behind one small face.

import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** v1: @modelcontextprotocol/sdk 1.x (2025 revisions); v2: @modelcontextprotocol/client pinned to 2026-07-28. */
export type Generation = 'v1' | 'v2';
export const GENERATIONS: Generation[] = ['v1', 'v2'];

export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface McpClient {
  tools(): Promise<ToolInfo[]>;
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

const INFO = { name: 'websift-test', version: '1.0.0' };

function face(client: {
  listTools(): Promise<{ tools: unknown[] }>;
  callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}): McpClient {
  return {
    tools: async () => (await client.listTools()).tools as ToolInfo[],
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
}

export async function httpClient(generation: Generation, url: string, key: string): Promise<McpClient> {
  const requestInit = { headers: { authorization: `Bearer ${key}` } };
  if (generation === 'v1') {
    const client = new ClientV1(INFO);
    await client.connect(new HttpV1(new URL(url), { requestInit }));
    return face(client);
  }
  const client = new ClientV2(INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(new URL(url), { requestInit }));
  return face(client as never);
}

export async function stdioClient(
  generation: Generation,
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ client: McpClient; stderr: () => string }> {
  let stderr = '';
  const params = { command, args, env, cwd, stderr: 'pipe' as const };
  if (generation === 'v1') {
    const transport = new StdioV1(params);
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new ClientV1(INFO);
    await client.connect(transport);
    return { client: face(client), stderr: () => stderr };
  }
  const transport = new StdioV2(params);
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new ClientV2(INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  return { client: face(client as never), stderr: () => stderr };
}
