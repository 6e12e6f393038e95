// websift/mcp: the engine as an MCP server (docs/mcp.md): the tools web_search, web_extract and usage,
// over stdio or Streamable HTTP. Needs the optional peer dependency `@modelcontextprotocol/server`
// (npm install @modelcontextprotocol/server), imported the first time a server or handler is used.

export type { McpFetchHandler, McpHandlerOptions } from './http-handler.js';
export { createMcpFetchHandler } from './http-handler.js';
export type { McpNodeHandler } from './node-handler.js';
export { toNodeHandler as createMcpNodeHandler } from './node-handler.js';
export { MCP_MISSING } from './sdk.js';
export type { McpServerOptions } from './server.js';
export { createMcpServer, DEFAULT_MAX_CHARS } from './server.js';
export type { McpStdioOptions, McpStdioServer } from './stdio.js';
export { serveMcpStdio } from './stdio.js';
