// `websift serve`'s access log: one line per request, JSON (pino) or text. What a line says comes from
// the tracing channels (src/channels.ts), gathered in a record the server opens around each request.
// The record is found from the contexts themselves, no AsyncLocalStorage (on Node 20 it turns on promise
// hooks process-wide, a third more CPU per search): the request's websift:http context is tied to the
// record as it starts, which the HTTP bindings do synchronously inside `around`; a call's context names
// that request (`request`), a source call its search (`call`). Never an API key, a query string or a
// query: the path is logged without its query, and no channel carries either.

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, pino } from 'pino';
import { type CallTraceContext, CHANNEL_NAMES, type HttpTraceContext, type SourceTraceContext } from '../channels.js';

export type LogFormat = 'json' | 'text';

/** What one request's line says. */
interface RequestRecord {
  requestId?: string;
  organization?: string;
  credits?: number;
  outcome?: string;
  /** Sources that answered (with results or empty), in the order they did. */
  answered: string[];
  fallback: boolean;
  hedged: boolean;
}

export interface RequestLog {
  /** Runs `next` (which hands the request to the HTTP bindings synchronously, or answers it) with its record; writes its line when the response closes. */
  around(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  /** An unexpected error of a request, on the same output. */
  error(error: unknown, request: { method: string; url: string; requestId?: string | undefined }): void;
  close(): void;
}

export interface RequestLogOptions {
  format: LogFormat;
  /** Where JSON lines go (default stdout). */
  stream?: { write(line: string): unknown };
  /** Where text lines go. */
  say: (line: string) => void;
}

/** json unless stdout is a terminal (docs/cli.md, "Logs"). */
export function defaultLogFormat(isTty = process.stdout.isTTY === true): LogFormat {
  return isTty ? 'text' : 'json';
}

export function createRequestLog(options: RequestLogOptions): RequestLog {
  /** Each request's record, on its websift:http context under this log's own symbol (no WeakMap to keep). */
  const RECORD: unique symbol = Symbol('websift.requestLog.record') as never;
  type Recorded = HttpTraceContext & { [RECORD]?: RequestRecord };
  /** The record of the request `around` is handing to the HTTP bindings, until its websift:http context starts. */
  let opening: RequestRecord | undefined;
  const recordOf = (request: HttpTraceContext | undefined) => (request as Recorded | undefined)?.[RECORD];
  const logger: Logger | undefined =
    options.format === 'json'
      ? pino(
          { base: null, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
          // Synchronous: an asynchronous destination measured no cheaper here (docs/benchmarks.md,
          // "Observability") and would lose its buffered lines if the process were killed.
          options.stream ?? pino.destination({ sync: true }),
        )
      : undefined;
  const listeners: [string, (message: unknown) => void][] = [
    [
      `tracing:${CHANNEL_NAMES.http}:start`,
      (m) => {
        if (!opening) return; // a request of another server, or of the bindings used directly
        (m as Recorded)[RECORD] = opening;
        opening = undefined;
      },
    ],
    [
      `tracing:${CHANNEL_NAMES.http}:asyncEnd`,
      (m) => {
        const c = m as Recorded;
        const record = c[RECORD];
        if (!record) return;
        record.requestId = c.requestId;
        if (c.organization !== undefined) record.organization = c.organization;
      },
    ],
    ...(['search', 'extract'] as const).map(
      (kind) =>
        [
          `tracing:${CHANNEL_NAMES[kind]}:asyncEnd`,
          (m: unknown) => {
            const c = m as CallTraceContext;
            const record = recordOf(c.request);
            if (!record) return;
            record.credits = c.credits ?? 0;
            if (c.outcome !== undefined) record.outcome = c.outcome;
          },
        ] as [string, (message: unknown) => void],
    ),
    [
      `tracing:${CHANNEL_NAMES.source}:asyncEnd`,
      (m) => {
        const c = m as SourceTraceContext;
        const record = recordOf(c.call?.request);
        if (!record) return;
        if (c.role === 'fallback') record.fallback = true;
        if (c.role === 'hedge') record.hedged = true;
        if (c.outcome === 'answered' || c.outcome === 'empty') record.answered.push(c.source);
      },
    ],
  ];
  for (const [name, listener] of listeners) subscribe(name, listener);

  return {
    around(req, res, next) {
      const started = performance.now();
      const record: RequestRecord = { answered: [], fallback: false, hedged: false };
      res.once('close', () => {
        // One object, its optional fields added only when known (no spread copies per request).
        const url = req.url ?? '/';
        const query = url.indexOf('?');
        const fields: Record<string, unknown> = {
          request_id: record.requestId ?? headerText(res.getHeader('x-request-id')),
          method: req.method,
          path: query === -1 ? url : url.slice(0, query),
          // A reply never written (the client left first) is nginx's 499.
          status: res.headersSent ? res.statusCode : 499,
          duration_ms: Math.round((performance.now() - started) * 10) / 10,
        };
        if (record.organization !== undefined) fields['organization'] = record.organization;
        if (record.credits !== undefined) fields['credits'] = record.credits;
        if (record.outcome !== undefined) fields['outcome'] = record.outcome;
        if (record.answered.length > 0 || record.fallback) {
          fields['sources'] = record.answered;
          fields['fallback'] = record.fallback;
        }
        if (record.hedged) fields['hedged'] = true;
        if (logger) logger.info(fields, 'request');
        else options.say(textLine(fields));
      });
      // The bindings start the request's websift:http context synchronously, within next().
      opening = record;
      try {
        next();
      } finally {
        opening = undefined;
      }
    },
    error(error, request) {
      const path = URL.canParse(request.url) ? new URL(request.url).pathname : '/';
      const requestId = request.requestId;
      if (logger)
        logger.error({ err: error, method: request.method, path, ...(requestId ? { request_id: requestId } : {}) }, 'unexpected error');
      else options.say(`error ${request.method} ${path}: ${(error as Error)?.stack ?? String(error)}`);
    },
    close() {
      for (const [name, listener] of listeners) unsubscribe(name, listener);
      logger?.flush();
    },
  };
}

const headerText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function textLine(f: Record<string, unknown>): string {
  const parts = [new Date().toISOString(), f['method'], f['path'], f['status'], `${Math.round(f['duration_ms'] as number)}ms`];
  if (f['request_id']) parts.push(`id=${f['request_id']}`);
  if (f['organization'] !== undefined) parts.push(`org=${f['organization']}`);
  if (f['credits'] !== undefined) parts.push(`credits=${f['credits']}`);
  if (f['sources'] !== undefined) parts.push(`sources=${(f['sources'] as string[]).join(',') || '-'}${f['fallback'] ? ' fallback' : ''}`);
  return parts.join(' ');
}
