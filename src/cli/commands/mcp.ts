// `websift mcp`: the MCP tools on stdin/stdout for one organization (docs/mcp.md). stdout carries
// JSON-RPC only; every message goes to stderr.

import { DEFAULT_MAX_CHARS, serveMcpStdio } from '../../mcp/index.js';
import { expectPositionals, intOption, type Options, parse } from '../args.js';
import type { CliCommand } from '../help.js';
import { say } from '../output.js';
import { untilSignal } from '../server.js';
import { organizationOf, withEngine } from './session.js';

const OPTIONS: Options = {
  org: { type: 'string', value: 'ID', help: 'organization the tools are billed to (default: the only one in the database)' },
  'max-chars': {
    type: 'string',
    value: 'N',
    help: `characters of page content per tool call when the client gives no max_chars (default ${DEFAULT_MAX_CHARS})`,
  },
};

export const mcp: CliCommand = {
  help: {
    usage: ['mcp [options]'],
    summary:
      'Serve the MCP tools web_search, web_extract and usage over stdio, for an agent client to start (docs/mcp.md). Needs the package @modelcontextprotocol/server. Logs go to stderr.',
    options: OPTIONS,
    examples: ['websift mcp --database ./books.db --org acme', 'websift mcp --config websift.json --max-chars 8000'],
  },
  async run(args) {
    const parsed = parse('mcp', args, OPTIONS);
    expectPositionals(parsed, 'mcp', []);
    const maxChars = intOption(parsed, 'max-chars', DEFAULT_MAX_CHARS, 1, 10_000_000);
    await withEngine(parsed, async (opened) => {
      const organization = await organizationOf(parsed, opened);
      const server = await serveMcpStdio(opened.engine, {
        organization,
        maxChars,
        onError: (error) => say(`websift mcp: ${error.message}`),
      });
      say(`websift mcp: serving organization ${organization} on stdio (database ${opened.database})`);
      // The client ends the session by closing stdin (or stopping us); calls in progress finish on close.
      const how = await Promise.race([server.done.then(() => 'stdin closed'), untilSignal()]);
      say(`websift mcp: ${how}, stopping`);
      await server.close();
    });
  },
};
