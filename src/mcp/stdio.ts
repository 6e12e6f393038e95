// MCP over stdio for one organization: the process's stdin and stdout carry JSON-RPC, so nothing else
// may write to stdout (logs go to stderr). Serves 2025-era and current clients alike.

import type { Readable, Writable } from 'node:stream';
import type { Engine } from '../types/index.js';
import { loadMcpStdio } from './sdk.js';
import { checkMcpOptions, createMcpServer, type McpServerOptions } from './server.js';

export interface McpStdioOptions extends McpServerOptions {
  /** Where JSON-RPC comes in (default process.stdin): any byte stream, e.g. a socket. */
  input?: Readable;
  /** Where JSON-RPC goes out (default process.stdout); nothing else may write to it. */
  output?: Writable;
  /** Told about errors outside any tool call (a malformed line, a transport fault). */
  onError?: (error: Error) => void;
}

export interface McpStdioServer {
  /** Resolves when the client closes its end of the input (the connection is over). */
  readonly done: Promise<void>;
  /** Ends the connection. The engine is not closed here. */
  close(): Promise<void>;
}

/**
 * Serves the MCP tools for `options.organization` on stdin/stdout (or the given streams), newline-delimited JSON-RPC.
 * @throws {Error} when `@modelcontextprotocol/server` is not installed.
 */
export async function serveMcpStdio(engine: Engine, options: McpStdioOptions): Promise<McpStdioServer> {
  const maxChars = checkMcpOptions(options);
  const { serveStdio, StdioServerTransport } = await loadMcpStdio();
  const input = options.input ?? process.stdin;
  const done = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });
  const handle = serveStdio(() => createMcpServer(engine, { organization: options.organization, maxChars }), {
    transport: new StdioServerTransport(input, options.output ?? process.stdout),
    ...(options.onError ? { onerror: options.onError } : {}),
  });
  return { done, close: () => handle.close() };
}
