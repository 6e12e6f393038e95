// `websift serve`: the HTTP API on node:http with the embedded defaults.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { expectPositionals, type Options, type Parsed, parse, stringOption, toInt } from '../args.js';
import { CliError } from '../cli-error.js';
import { loadConfig } from '../config.js';
import type { CliCommand } from '../help.js';
import { mcpRoute } from '../mcp-route.js';
import { openEngine, storageFlags } from '../open-engine.js';
import { say } from '../output.js';
import { OBSERVE_OPTIONS, type Observability, observability, startCheck } from '../serve-observability.js';
import { startServer, untilSignal } from '../server.js';
import { checkServerLimits, DEFAULT_SERVER_LIMITS, type ServerLimits } from '../server-limits.js';

const OPTIONS: Options = {
  port: { type: 'string', value: 'N', help: 'port to listen on, 0 = any free one (default 8080)', env: 'WEBSIFT_PORT, else PORT' },
  host: { type: 'string', value: 'ADDR', help: 'address to bind (default 127.0.0.1; 0.0.0.0 exposes it)', env: 'WEBSIFT_HOST, else HOST' },
  grace: { type: 'string', value: 'SECONDS', help: 'on SIGINT/SIGTERM, how long in-flight requests may finish (default 30)' },
  'max-connections': {
    type: 'string',
    value: 'N',
    help: `open connections at most; more are closed on accept (default ${DEFAULT_SERVER_LIMITS.maxConnections})`,
    env: 'WEBSIFT_MAX_CONNECTIONS',
  },
  'idle-timeout': {
    type: 'string',
    value: 'SECONDS',
    help: `close a connection that sends no request for this long (default ${DEFAULT_SERVER_LIMITS.idleTimeoutMs / 1000})`,
    env: 'WEBSIFT_IDLE_TIMEOUT',
  },
  'header-timeout': {
    type: 'string',
    value: 'SECONDS',
    help: `a request's headers must arrive within this (default ${DEFAULT_SERVER_LIMITS.headersTimeoutMs / 1000})`,
    env: 'WEBSIFT_HEADER_TIMEOUT',
  },
  'request-timeout': {
    type: 'string',
    value: 'SECONDS',
    help: `a request's headers and body must arrive within this (default ${DEFAULT_SERVER_LIMITS.requestTimeoutMs / 1000})`,
    env: 'WEBSIFT_REQUEST_TIMEOUT',
  },
  ...OBSERVE_OPTIONS,
};

export const serve: CliCommand = {
  help: {
    usage: ['serve [options]'],
    summary:
      "Serve the HTTP API (docs/http.md) and the MCP tools at /mcp (docs/mcp.md). Sources: the local index, then the config's. A flag wins over its environment variable, WEBSIFT_PORT/WEBSIFT_HOST over PORT/HOST.",
    options: OPTIONS,
    examples: ['websift serve --port 3000 --config websift.json --database ./books.db', 'WEBSIFT_HOST=0.0.0.0 PORT=8000 websift serve'],
  },
  run: serveCommand,
};

async function serveCommand(args: string[]): Promise<void> {
  const parsed = parse('serve', args, OPTIONS);
  expectPositionals(parsed, 'serve', []);
  const { port, host, hostFrom } = listenAddress(parsed);
  const graceMs = secondsOption(stringOption(parsed, 'grace'), '--grace', 30) * 1000;
  const limits = serverLimits(parsed);
  const config = loadConfig(stringOption(parsed, 'config'));
  const opened = await openEngine({ ...storageFlags(parsed.values as Record<string, string | undefined>), config });
  let server;
  let observe: Observability | undefined;
  let ready: string;
  try {
    ready = await startCheck(opened.engine, parsed);
    observe = observability(parsed, opened.engine);
    const mcp = mcpRoute(opened.engine, say);
    const metrics = observe.preHandler;
    const preHandler = metrics ? (req: IncomingMessage, res: ServerResponse) => mcp(req, res) || metrics(req, res) : mcp;
    server = await startServer({ engine: opened.engine, host, port, limits, requestLog: observe.requestLog, preHandler });
  } catch (error) {
    observe?.close();
    await opened.close();
    const code = (error as NodeJS.ErrnoException).code;
    // A host that does not resolve most often came from the environment (tcsh exports HOST as the machine's name).
    if (hostFrom && (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL')) {
      throw new CliError(`cannot listen on '${host}' (from ${hostFrom}): ${code}; set --host or WEBSIFT_HOST`, 1);
    }
    throw error;
  }
  // Listening for signals before the banner: a supervisor may stop us as soon as it reads it, and a
  // signal that comes before a handler exists kills the process without the graceful shutdown.
  const stop = untilSignal();
  const sources =
    opened.engine
      .sources()
      .map((s) => s.id)
      .join(', ') || 'none';
  say(`websift listening on ${server.url} (database ${opened.database}; sources: ${sources})`);
  say(ready);
  // The SSRF guard is off: whoever holds a key can make this server fetch internal addresses.
  if (config.engine['allowPrivateNetwork'] === true) {
    say(
      'warning: allowPrivateNetwork is on: extract and include_content may fetch private and loopback addresses (127.0.0.1, 10/8, 192.168/16, ::1, cloud metadata…)',
    );
  }
  if ((await opened.engine.admin.listOrganizations()).length === 0) {
    say("no organizations yet: create one with 'websift org create <id> --credits N' and a key with 'websift key create <id>'");
  }
  const signal = await stop;
  say(`${signal}: finishing in-flight requests…`);
  const dropped = await server.close(graceMs);
  if (dropped > 0) say(`dropped ${dropped} request(s) still unfinished after ${graceMs / 1000} s`);
  observe.close();
  await opened.close();
  say('stopped');
}

/** --port/--host, else WEBSIFT_PORT/WEBSIFT_HOST, else PORT/HOST (as platforms that assign a port set it), else the defaults. */
export function listenAddress(parsed: Parsed, env: NodeJS.ProcessEnv = process.env): { port: number; host: string; hostFrom?: string } {
  const fromEnv = (...names: string[]) => {
    for (const name of names) if (env[name]) return { name, value: env[name]! };
    return undefined;
  };
  const flagPort = stringOption(parsed, 'port');
  const envPort = fromEnv('WEBSIFT_PORT', 'PORT');
  const port =
    flagPort !== undefined
      ? toInt(flagPort, '--port', 0, 65535)
      : envPort
        ? toInt(envPort.value, `environment variable ${envPort.name}`, 0, 65535)
        : 8080;
  const flagHost = stringOption(parsed, 'host');
  const envHost = flagHost === undefined ? fromEnv('WEBSIFT_HOST', 'HOST') : undefined;
  if (envHost) return { port, host: envHost.value, hostFrom: `environment variable ${envHost.name}` };
  return { port, host: flagHost ?? '127.0.0.1' };
}

/** The connection limits (docs/cli.md, "Connection limits"): each flag, else its environment variable, else the default. */
export function serverLimits(parsed: Parsed, env: NodeJS.ProcessEnv = process.env): ServerLimits {
  const raw = (name: string, variable: string) => {
    const flag = stringOption(parsed, name);
    if (flag !== undefined) return { raw: flag, label: `--${name}` };
    return env[variable] ? { raw: env[variable]!, label: `environment variable ${variable}` } : undefined;
  };
  const seconds = (name: string, variable: string, fallbackMs: number) => {
    const given = raw(name, variable);
    return given ? Math.round(secondsOption(given.raw, given.label, 0, 0.001) * 1000) : fallbackMs;
  };
  const connections = raw('max-connections', 'WEBSIFT_MAX_CONNECTIONS');
  const limits: ServerLimits = {
    maxConnections: connections ? toInt(connections.raw, connections.label, 1, 1_000_000) : DEFAULT_SERVER_LIMITS.maxConnections,
    idleTimeoutMs: seconds('idle-timeout', 'WEBSIFT_IDLE_TIMEOUT', DEFAULT_SERVER_LIMITS.idleTimeoutMs),
    headersTimeoutMs: seconds('header-timeout', 'WEBSIFT_HEADER_TIMEOUT', DEFAULT_SERVER_LIMITS.headersTimeoutMs),
    requestTimeoutMs: seconds('request-timeout', 'WEBSIFT_REQUEST_TIMEOUT', DEFAULT_SERVER_LIMITS.requestTimeoutMs),
  };
  try {
    checkServerLimits(limits); // the one check startServer makes too, as a usage error here
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  return limits;
}

/** Seconds (decimals allowed) from `min` to 3600. */
function secondsOption(raw: string | undefined, label: string, fallback: number, min = 0): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > 3600) {
    throw new CliError(`${label} must be a number of seconds from ${min === 0 ? 0 : 'above 0'} to 3600, got '${raw}'`);
  }
  return value;
}
