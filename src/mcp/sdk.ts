// The MCP SDK's server package, an optional peer dependency: imported the first time a server is made,
// so `websift` and `websift serve` run without it (like `pg` and `ioredis`).

import type * as Server from '@modelcontextprotocol/server';
import type * as Stdio from '@modelcontextprotocol/server/stdio';

export type McpSdk = typeof Server;
export type McpStdioSdk = typeof Stdio;

/** The message of the Error websift/mcp throws (and `/mcp` answers with 501) when the SDK is not installed. */
export const MCP_MISSING =
  "websift/mcp needs the '@modelcontextprotocol/server' package (an optional peer dependency): run `npm install @modelcontextprotocol/server`";

/** Imports one of the SDK's entries; a missing package becomes an Error that says how to install it. */
export async function importOrExplain<T>(importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new Error(MCP_MISSING, { cause: error });
    throw error;
  }
}

let sdk: Promise<McpSdk> | undefined;
let stdio: Promise<McpStdioSdk> | undefined;

// Literal specifiers, so bundlers and the package test see the dependency. A failed load is not kept:
// installing the package makes the next call work.
export function loadMcpSdk(): Promise<McpSdk> {
  sdk ??= importOrExplain(() => import('@modelcontextprotocol/server')).catch((error: unknown) => {
    sdk = undefined;
    throw error;
  });
  return sdk;
}

export function loadMcpStdio(): Promise<McpStdioSdk> {
  stdio ??= importOrExplain(() => import('@modelcontextprotocol/server/stdio')).catch((error: unknown) => {
    stdio = undefined;
    throw error;
  });
  return stdio;
}
