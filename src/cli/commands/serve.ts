// `websift serve`: the HTTP API on node:http with the embedded defaults.

import { expectPositionals, intOption, parse, stringOption } from '../args.js';
import { CliError } from '../cli-error.js';
import { loadConfig } from '../config.js';
import { openEngine, storageFlags } from '../open-engine.js';
import { say } from '../output.js';
import { startServer, untilSignal } from '../server.js';

export async function serveCommand(args: string[]): Promise<void> {
  const parsed = parse('serve', args, { port: { type: 'string' }, host: { type: 'string' }, grace: { type: 'string' } });
  expectPositionals(parsed, 'serve', []);
  const port = intOption(parsed, 'port', 8080, 0, 65535);
  const host = stringOption(parsed, 'host') ?? '127.0.0.1';
  const graceMs = secondsOption(stringOption(parsed, 'grace'), 30) * 1000;
  const config = loadConfig(stringOption(parsed, 'config'));
  const opened = await openEngine({ ...storageFlags(parsed.values as Record<string, string | undefined>), config });
  let server;
  try {
    server = await startServer({ engine: opened.engine, host, port });
  } catch (error) {
    await opened.close();
    throw error;
  }
  const sources = opened.engine.sources().map((s) => s.id).join(', ') || 'none';
  say(`websift listening on ${server.url} (database ${opened.database}; sources: ${sources})`);
  if ((await opened.engine.admin.listOrganizations()).length === 0) {
    say("no organizations yet: create one with 'websift org create <id> --credits N' and a key with 'websift key create <id>'");
  }
  const signal = await untilSignal();
  say(`${signal}: finishing in-flight requests…`);
  const dropped = await server.close(graceMs);
  if (dropped > 0) say(`dropped ${dropped} request(s) still unfinished after ${graceMs / 1000} s`);
  await opened.close();
  say('stopped');
}

/** --grace: seconds (decimals allowed) to wait for in-flight requests on shutdown. */
function secondsOption(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 3600) {
    throw new CliError(`--grace must be a number of seconds from 0 to 3600, got '${raw}'`);
  }
  return value;
}
