// The websift CLI's commands and dispatch: JSON on stdout, messages on stderr, exit 2 on bad usage and
// 1 on a failed operation. main.ts is the executable around it.

import { isWebsiftError } from '../errors.js';
import { CliError } from './cli-error.js';
import { printJson, say } from './output.js';

export const USAGE = `usage: websift <command> [options]

  serve [--port 8080] [--host 127.0.0.1] [--grace 30]   serve the HTTP API
  demo [--keep-serving] [--port 0]           index the shipped corpus, serve it, and call the API
  org create <id> [--credits N]              create an organization
  org credit <id> <credits>                  add credits
  org list                                   list organizations with balances
  key create <organization>                  create an API key (printed once)
  key revoke <key>                           revoke an API key
  search <query> [--content N] [--org ID]    search in-process (--content: include content of N pages)
  extract <url>... [--format markdown|html] [--org ID]
  usage [--org ID]                           credits and request counts
  index add <path|url>... [--base-url URL] [--org ID]
  openapi                                    print the OpenAPI document

Every command takes --database PATH|URL (alias --db; default $WEBSIFT_DATABASE_URL, else ./websift.db;
a postgres:// URL puts the books in PostgreSQL), --redis URL ($WEBSIFT_REDIS_URL: shared caches and
rate limit), --index PATH (the local index's SQLite file) and --config FILE (JSON:
{"sources":[{"type":"searxng","baseUrl":"…"}],"localIndex":true,"engine":{…}}).`;

/** Resolves to the exit code (0 when nothing is returned). */
type Command = (args: string[]) => Promise<number | void>;

// Loaded on demand: a quick command need not load the converters, SQLite or the HTTP stack.
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  demo: async () => (await import('./commands/demo.js')).demoCommand,
  org: async () => (await import('./commands/admin.js')).orgCommand,
  key: async () => (await import('./commands/admin.js')).keyCommand,
  search: async () => (await import('./commands/calls.js')).searchCommand,
  extract: async () => (await import('./commands/calls.js')).extractCommand,
  usage: async () => (await import('./commands/calls.js')).usageCommand,
  index: async () => (await import('./commands/index-add.js')).indexCommand,
  openapi: async () => async () => printJson((await import('../http/openapi.js')).openapi),
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    (command === undefined ? say : (text: string) => process.stdout.write(`${text}\n`))(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    say(`websift: unknown command '${command}' (run 'websift help')`);
    return 2;
  }
  try {
    return (await (await load())(args)) ?? 0;
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
