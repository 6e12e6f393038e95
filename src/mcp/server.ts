// The MCP server over an engine and an organization: three tools, each one API call. Billing, repeats,
// idempotency and rate limits stay the engine's; this layer maps arguments to the wire body and the
// answer (or the API error) to a tool result.

import type { CallToolResult, McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { InvalidRequestError, isInvalidRequestError, isWebsiftError, type WebsiftError } from '../errors.js';
import { PACKAGE_VERSION } from '../project.js';
import type { CallContext, Engine, ExtractParams, SearchParams } from '../types/index.js';
import { INSTRUCTIONS, USAGE_DESCRIPTION, webExtractDescription, webSearchDescription } from './descriptions.js';
import { errorMarkdown, extractMarkdown, searchMarkdown, usageMarkdown } from './render.js';
import { loadMcpSdk } from './sdk.js';
import { advertisedInput, checkedOutput, toolInputs, toolOutputs } from './tool-schemas.js';

/** The default budget: characters of page content per tool call (clients cap a result near 25,000 tokens). */
export const DEFAULT_MAX_CHARS = 20_000;

export interface McpServerOptions {
  /** The organization every call is made for and charged to. */
  organization: string;
  /** Characters of page content per call when the caller gives no `max_chars` (default 20,000). */
  maxChars?: number;
}

/** Checks the options once, where a host makes a server or a handler. */
export function checkMcpOptions(options: { maxChars?: number | undefined }): number {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 1)
    throw new TypeError(`maxChars must be a positive integer, got ${String(options.maxChars)}`);
  return maxChars;
}

type Args = Record<string, unknown>;

type ToolSchemas = Record<
  'web_search' | 'web_extract' | 'usage',
  { inputSchema: StandardSchemaWithJSON<Args>; outputSchema: StandardSchemaWithJSON }
>;
const schemasByBudget = new Map<number, ToolSchemas>();

/**
 * The tools' schemas with their JSON Schema made once per budget, not per server: over HTTP a server
 * is made for every request.
 */
function toolSchemas(maxChars: number): ToolSchemas {
  let schemas = schemasByBudget.get(maxChars);
  if (!schemas) {
    const inputs = toolInputs(maxChars);
    const made = (name: keyof ToolSchemas) => ({
      inputSchema: advertisedInput(inputs[name]),
      outputSchema: checkedOutput(toolOutputs[name]),
    });
    schemas = { web_search: made('web_search'), web_extract: made('web_extract'), usage: made('usage') };
    // A handful of budgets at most in practice; bounded anyway.
    if (schemasByBudget.size >= 16) schemasByBudget.clear();
    schemasByBudget.set(maxChars, schemas);
  }
  return schemas;
}

/** The wire body of the given arguments: absent ones left out (the engine applies its defaults). */
function body(entries: Record<string, unknown>): Args {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

/**
 * An MCP server (the SDK's McpServer) with the tools `web_search`, `web_extract` and `usage`, calling
 * `engine` for `options.organization`. A server serves one connection (stdio) or one request (HTTP).
 * @throws {Error} when `@modelcontextprotocol/server` is not installed (it says how to install it).
 */
export async function createMcpServer(engine: Engine, options: McpServerOptions): Promise<McpServer> {
  const maxChars = checkMcpOptions(options);
  const { McpServer } = await loadMcpSdk();
  const schemas = toolSchemas(maxChars);
  const server = new McpServer({ name: 'websift', version: PACKAGE_VERSION }, { instructions: INSTRUCTIONS });
  const context = (signal: AbortSignal): CallContext => ({ organization: options.organization, signal });

  server.registerTool(
    'web_search',
    {
      title: 'Web search',
      description: webSearchDescription(maxChars),
      ...schemas.web_search,
      // Not read-only: it spends credits. Not idempotent: a repeat after 5 minutes is charged again.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args: Args, ctx) =>
      toolCall(
        () => {
          const params = body({
            q: args['query'],
            include_content: args['include_content'],
            content_results: args['content_results'],
            // The budget bounds page content, which only include_content brings.
            max_chars: args['max_chars'] ?? (args['include_content'] === true ? maxChars : undefined),
          });
          return engine.search(params as unknown as SearchParams, context(ctx.mcpReq.signal));
        },
        searchMarkdown,
        { q: 'query' },
      ),
  );

  server.registerTool(
    'web_extract',
    {
      title: 'Read web pages',
      description: webExtractDescription(maxChars),
      ...schemas.web_extract,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args: Args, ctx) =>
      toolCall(() => {
        const params = body({
          urls: args['urls'],
          format: args['format'],
          query: args['query'],
          // With a query and no budget the engine's own passage default applies (2,000 characters a page).
          max_chars: args['max_chars'] ?? (args['query'] === undefined ? maxChars : undefined),
          start_char: args['start_char'],
        });
        return engine.extract(params as unknown as ExtractParams, context(ctx.mcpReq.signal));
      }, extractMarkdown),
  );

  server.registerTool(
    'usage',
    {
      title: 'Credits and usage',
      description: USAGE_DESCRIPTION,
      ...schemas.usage,
      // Reads the organization's own books only: a closed world.
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (_args: Args, ctx) => toolCall(() => engine.usage(context(ctx.mcpReq.signal)), usageMarkdown),
  );
  return server;
}

/**
 * One API call as a tool result: the answer as structuredContent and Markdown; an API error as
 * `isError` with the error body (a 400 naming the tool's argument, not the wire field it became).
 * Anything else is a fault of the server and reaches the SDK (a JSON-RPC error).
 */
async function toolCall<T extends object>(
  call: () => Promise<T>,
  render: (answer: T) => string,
  renamed: Record<string, string> = {},
): Promise<CallToolResult> {
  try {
    const answer = await call();
    return { content: [{ type: 'text', text: render(answer) }], structuredContent: answer as Record<string, unknown> };
  } catch (error) {
    if (!isWebsiftError(error)) throw error;
    const shown = asArguments(error, renamed);
    return { isError: true, content: [{ type: 'text', text: errorMarkdown(shown) }], structuredContent: shown.body };
  }
}

function asArguments(error: WebsiftError, renamed: Record<string, string>): WebsiftError {
  if (!isInvalidRequestError(error) || !error.problems.some((p) => Object.hasOwn(renamed, p.field))) return error;
  const problems = error.problems.map((p) => (Object.hasOwn(renamed, p.field) ? { ...p, field: renamed[p.field]! } : p));
  const named = new InvalidRequestError(problems, error.code);
  named.timing = error.timing;
  return named;
}
