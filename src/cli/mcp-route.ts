// `/mcp` on `websift serve`: the MCP endpoint (Streamable HTTP, stateless, the API's Bearer keys) beside
// the API, as a pre-handler of the CLI's server.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpFetchHandler, createMcpNodeHandler } from '../mcp/index.js';
import type { Engine } from '../types/index.js';

export const MCP_PATH = '/mcp';

/** Answers requests to /mcp (true), leaves the others to the API (false). */
export function mcpRoute(engine: Engine, log: (line: string) => void): (req: IncomingMessage, res: ServerResponse) => boolean {
  const report = (error: unknown) => log(`error MCP: ${(error as Error)?.stack ?? String(error)}`);
  const handle = createMcpNodeHandler(createMcpFetchHandler(engine, { onError: report }), report);
  return (req, res) => {
    if ((req.url ?? '/').split('?')[0]!.replace(/\/+$/, '') !== MCP_PATH) return false;
    handle(req, res);
    return true;
  };
}
