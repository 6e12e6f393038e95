// The websift CLI's dispatch: JSON on stdout, messages on stderr, exit 2 on bad usage and 1 on a failed
// operation. Each command declares its own help beside its code (commands/*); main.ts is the executable.

import { isWebsiftError } from '../errors.js';
import { takeLeadingOptions } from './args.js';
import { CliError } from './cli-error.js';
import { type CliCommand, renderHelp } from './help.js';
import { printJson, say } from './output.js';
import { packageVersion } from './version.js';

export const USAGE = `usage: websift <command> [options]

  serve [--port 8080] [--host 127.0.0.1] [--grace 30]   serve the HTTP API
  demo [--keep-serving] [--port 0]           index the shipped corpus, serve it, and call the API
  org create <id> [--credits N]              create an organization
  org credit <id> <credits>                  add credits
  org list                                   list organizations with balances
  key create <organization>                  create an API key (printed once)
  key revoke <key>                           revoke an API key
  search <query...> [--content N] [--org ID] search in-process (--content: include content of N pages)
  extract <url>... [--format markdown|html] [--org ID]
  usage [--org ID]                           credits and request counts
  index add <path|url>... [--base-url URL] [--org ID]
  openapi                                    print the OpenAPI document
  mcp [--org ID] [--max-chars N]             serve the MCP tools over stdio (docs/mcp.md)

Every command takes (before or after it) --database PATH|URL (alias --db; default $WEBSIFT_DATABASE_URL,
else ./websift.db; a postgres:// URL puts the books in PostgreSQL), --redis URL ($WEBSIFT_REDIS_URL:
shared caches and rate limit), --index PATH (the local index's SQLite file) and --config FILE (JSON:
{"sources":[{"type":"searxng","baseUrl":"…"}],"localIndex":true,"engine":{…}}).

'websift <command> --help' shows a command's options; 'websift --version' (or -V, -v) its version.`;

// Loaded on demand: a quick command need not load the converters, SQLite or the HTTP stack.
const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  serve: async () => (await import('./commands/serve.js')).serve,
  demo: async () => (await import('./commands/demo.js')).demo,
  org: async () => (await import('./commands/admin.js')).org,
  key: async () => (await import('./commands/admin.js')).key,
  search: async () => (await import('./commands/calls.js')).search,
  extract: async () => (await import('./commands/calls.js')).extract,
  usage: async () => (await import('./commands/calls.js')).usage,
  index: async () => (await import('./commands/index-add.js')).index,
  openapi: async () => (await import('./commands/openapi.js')).openapi,
  mcp: async () => (await import('./commands/mcp.js')).mcp,
};

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

export async function main(argv: string[]): Promise<number> {
  let rest: string[];
  try {
    rest = takeLeadingOptions(argv); // `websift --database x usage` reads like `websift usage --database x`
  } catch (error) {
    return report(error);
  }
  const [command, ...args] = rest;
  if (command === undefined) {
    say(USAGE);
    return 2;
  }
  if (command === '--version' || command === '-V' || command === '-v') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  // `websift help serve` (or `websift --help serve`) reads like `websift serve --help`.
  const helpFirst = command === 'help' || isHelp(command);
  if (helpFirst && args[0] === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const name = helpFirst ? args[0]! : command;
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    say(`websift: unknown command '${name}' (run 'websift help')`);
    return 2;
  }
  try {
    const loaded = await load();
    // After `--` a '--help' is an argument (a query, say), not a request for help.
    const dashes = args.indexOf('--');
    if (helpFirst || (dashes === -1 ? args : args.slice(0, dashes)).some(isHelp)) {
      process.stdout.write(`${renderHelp(loaded.help)}\n`);
      return 0;
    }
    return (await loaded.run(args)) ?? 0;
  } catch (error) {
    return report(error);
  }
}

/** One line on stderr; an engine error also prints its JSON body on stdout. */
function report(error: unknown): number {
  if (error instanceof CliError) {
    say(`websift: ${error.message}`);
    return error.exitCode;
  }
  if (isWebsiftError(error)) {
    printJson(error.body);
    say(`websift: ${error.message} (${error.code})`);
    return 1;
  }
  const e = error as NodeJS.ErrnoException;
  say(`websift: ${e?.code ? `${e.code}: ` : ''}${e?.message ?? String(error)}`);
  if (process.env.WEBSIFT_DEBUG) say(String(e?.stack));
  return 1;
}
