// What `websift serve` adds to watch it (docs/operating.md, "Watching a server"): the readiness check at
// start, the access log and GET /metrics, with their flags. serve.ts only calls these.

import { websiftMetrics } from '../metrics/index.js';
import type { Engine, Readiness } from '../types/index.js';
import type { Options, Parsed } from './args.js';
import { stringOption } from './args.js';
import { CliError } from './cli-error.js';
import { metricsRoute } from './metrics-route.js';
import { say } from './output.js';
import { createRequestLog, defaultLogFormat, type LogFormat, type RequestLog } from './request-log.js';

export const OBSERVE_OPTIONS: Options = {
  'log-format': {
    type: 'string',
    value: 'json|text',
    help: 'one access-log line per request: JSON (the default when stdout is not a terminal) or text',
    env: 'WEBSIFT_LOG_FORMAT',
  },
  'no-metrics': { type: 'boolean', help: 'do not serve GET /metrics (Prometheus text, no key needed)' },
  'start-unready': { type: 'boolean', help: 'start even when the database or Redis does not answer (/readyz answers 503 until they do)' },
};

export interface Observability {
  requestLog: RequestLog;
  preHandler?: ReturnType<typeof metricsRoute>;
  close(): void;
}

export function observability(parsed: Parsed, engine: Engine, env: NodeJS.ProcessEnv = process.env): Observability {
  const format = logFormat(stringOption(parsed, 'log-format') ?? env['WEBSIFT_LOG_FORMAT']);
  const requestLog = createRequestLog({ format, say });
  const metrics = parsed.values['no-metrics'] === true ? undefined : websiftMetrics({ engine });
  return {
    requestLog,
    ...(metrics ? { preHandler: metricsRoute(metrics) } : {}),
    close() {
      metrics?.close();
      requestLog.close();
    },
  };
}

function logFormat(raw: string | undefined): LogFormat {
  if (raw === undefined) return defaultLogFormat();
  if (raw === 'json' || raw === 'text') return raw;
  throw new CliError(`--log-format must be json or text, got '${raw}'`);
}

/** How long `serve` waits for its database and Redis to answer before refusing to start. */
export const START_WAIT_MS = 5_000;

/**
 * The start check: the database and Redis must answer, else serve refuses to start naming the one that
 * does not (exit 1), unless --start-unready. Resolves to the banner's line about them.
 */
export async function startCheck(engine: Engine, parsed: Parsed): Promise<string> {
  // Services started beside the server (a container's, a unit's) may answer a moment later: asked again
  // for up to START_WAIT_MS before refusing; a ready one answers on the first ask.
  const giveUpAt = Date.now() + START_WAIT_MS;
  let readiness = await engine.readiness();
  while (!readiness.ready && parsed.values['start-unready'] !== true && Date.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    readiness = await engine.readiness();
  }
  const line = describe(readiness);
  if (readiness.ready) return `ready: ${line}`;
  if (parsed.values['start-unready'] === true) return `NOT READY (starting anyway, --start-unready): ${line}`;
  const failing = Object.entries(readiness.checks)
    .filter(([, c]) => c.status !== 'ok')
    .map(([name, c]) => `${name} (${c.error ?? 'no answer'})`);
  throw new CliError(
    `cannot start: ${failing.join(' and ')} unreachable; start it, or pass --start-unready to serve anyway (/readyz answers 503 until it answers)`,
    1,
  );
}

function describe(readiness: Readiness): string {
  return Object.entries(readiness.checks)
    .map(([name, c]) => (c.status === 'ok' ? `${name} ok (${c.latency_ms} ms)` : `${name} FAILING (${c.error ?? 'no answer'})`))
    .join(', ');
}
