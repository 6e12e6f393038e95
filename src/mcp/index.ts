// websift/mcp: the engine as an MCP server (docs/mcp.md): the tools web_search, web_extract and usage,
// over stdio or Streamable HTTP. Needs the optional peer dependency `@modelcontextprotocol/server`
// (npm install @modelcontextprotocol/server), imported the first time a server or handler is used.
export { createMcpServer, DEFAULT_MAX_CHARS } from './server.js';
export type { McpServerOptions } from './server.js';
export { createMcpFetchHandler } from './http-handler.js';
export type { McpFetchHandler, McpHandlerOptions } from './http-handler.js';
export { toNodeHandler as createMcpNodeHandler } from './node-handler.js';
export type { McpNodeHandler } from './node-handler.js';
export { serveMcpStdio } from './stdio.js';
export type { McpStdioOptions, McpStdioServer } from './stdio.js';
export { MCP_MISSING } from './sdk.js';
