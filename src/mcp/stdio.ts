// MCP over stdio for one organization: the process's stdin and stdout carry JSON-RPC, so nothing else
// may write to stdout (logs go to stderr). Serves 2025-era and current clients alike.

import type { Engine } from '../types/index.js';
import { loadMcpStdio } from './sdk.js';
import { checkMcpOptions, createMcpServer, type McpServerOptions } from './server.js';

export interface McpStdioServer {
  /** Resolves when the client closes stdin (the connection is over). */
  readonly done: Promise<void>;
  /** Ends the connection. The engine is not closed here. */
  close(): Promise<void>;
}

/**
 * Serves the MCP tools for `options.organization` on stdin/stdout.
 * @throws {Error} when `@modelcontextprotocol/server` is not installed.
 */
export async function serveMcpStdio(
  engine: Engine,
  options: McpServerOptions & { onError?: (error: Error) => void },
): Promise<McpStdioServer> {
  const maxChars = checkMcpOptions(options);
  const { serveStdio } = await loadMcpStdio();
  const done = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  const handle = serveStdio(() => createMcpServer(engine, { organization: options.organization, maxChars }), {
    ...(options.onError ? { onerror: options.onError } : {}),
  });
  return { done, close: () => handle.close() };
}
