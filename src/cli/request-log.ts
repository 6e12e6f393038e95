// `websift serve`'s access log: one line per request, JSON (pino's format) or text. What a line says comes from
// the tracing channels (src/channels.ts), gathered in a record the server opens around each request.
// The record is found from the contexts themselves, no AsyncLocalStorage (on Node 20 it turns on promise
// hooks process-wide, a third more CPU per search): the request's websift:http context is tied to the
// record as it starts, which the HTTP bindings do synchronously inside `open`; a call's context names
// that request (`request`) and holds what its sources did (`callSources`: no websift:source subscription,
// which would trace every source call for the log alone). Never an API key, a query string or a query:
// the path is logged without its query, and no channel carries either.

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, pino } from 'pino';
import {
  type CallSources,
  type CallTraceContext,
  CHANNEL_NAMES,
  callSources,
  claimSlot,
  HttpTrace,
  type HttpTraceContext,
  noteRequestStart,
  releaseSlot,
} from '../channels.js';
import { bufferedLines } from './buffered-lines.js';

export type LogFormat = 'json' | 'text';

export interface RequestLog {
  /**
   * Opens the request's record and runs `next(req, res)` (which hands the request to the HTTP bindings
   * synchronously, or answers it: the server's one dispatch function, no closure per request); returns the
   * record, for `done` when the response closes (the server's own `close` listener calls it: no listener nor
   * closure of the log's per request).
   */
  open(req: IncomingMessage, res: ServerResponse, next: (req: IncomingMessage, res: ServerResponse) => void): RequestEntry;
  /** Writes the request's line. */
  done(entry: RequestEntry): void;
  /** An unexpected error of a request, on the same output. */
  error(error: unknown, request: { method: string; url: string; requestId?: string | undefined }): void;
  /** Stops listening and writes what is waiting. */
  close(): void;
}

/** What `open` hands back for `done`. */
export interface RequestEntry {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

export interface RequestLogOptions {
  format: LogFormat;
  /** Where JSON lines go, each written as it is made. Default: stdout, buffered (buffered-lines.ts). */
  stream?: { write(line: string): unknown };
  /** Where text lines go. */
  say: (line: string) => void;
}

/** json unless stdout is a terminal (docs/cli.md, "Logs"). */
export function defaultLogFormat(isTty = process.stdout.isTTY === true): LogFormat {
  return isTty ? 'text' : 'json';
}

/** One request's record, filled in from the channels. */
interface Entry extends RequestEntry {
  /** When `open` was called: the line's duration, and the request's start on its websift:http context (noteRequestStart). */
  readonly started: number;
  /** The request's websift:http context, once started (request id and organization are read from it). */
  http: HttpTraceContext | undefined;
  /** The request's engine call, once it ended (credits, outcome and its sources are read from it). */
  call: CallTraceContext | undefined;
}

export function createRequestLog(options: RequestLogOptions): RequestLog {
  /** Each request's record, in this log's slot on its websift:http context (no WeakMap to keep; a slot the context has from creation, not a property added to it). */
  const RECORD: unique symbol = claimSlot('websift.requestLog.record') as never;
  type Recorded = HttpTraceContext & { [RECORD]?: Entry };
  /** The record of the request `open` is handing to the HTTP bindings, until its websift:http context starts. */
  let opening: Entry | undefined;
  const recordOf = (request: HttpTraceContext | undefined) => (request as Recorded | undefined)?.[RECORD];
  const json = options.format === 'json';
  const buffered = json && options.stream === undefined ? bufferedLines() : undefined;
  const stream = json ? (options.stream ?? buffered) : undefined;
  // pino for the rare error lines (its error serializer), on the same stream as the request lines.
  const logger: Logger | undefined = stream
    ? pino({ base: null, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, stream)
    : undefined;
  /** A call's end: the same function at websift:search and websift:extract. */
  const ended = (m: unknown) => {
    const c = m as CallTraceContext;
    const record = recordOf(c.request);
    if (record) record.call = c;
  };
  const listeners: [string, (message: unknown) => void][] = [
    [
      `tracing:${CHANNEL_NAMES.http}:start`,
      (m) => {
        if (!opening) return; // a request of another server, or of the bindings used directly
        (m as Recorded)[RECORD] = opening;
        opening.http = m as HttpTraceContext;
        // The request's start for every subscriber that times it (websift/metrics): no clock read of theirs.
        noteRequestStart(m as HttpTraceContext, opening.started);
        opening = undefined;
      },
    ],
    [`tracing:${CHANNEL_NAMES.search}:asyncEnd`, ended],
    [`tracing:${CHANNEL_NAMES.extract}:asyncEnd`, ended],
  ];
  for (const [name, listener] of listeners) subscribe(name, listener);

  return {
    open(req, res, next) {
      // A literal, not a class: one shape from its creation site, and no field initializer to call.
      const entry: Entry = { req, res, started: performance.now(), http: undefined, call: undefined };
      // The bindings start the request's websift:http context synchronously, within next().
      opening = entry;
      try {
        next(req, res);
      } finally {
        opening = undefined;
      }
      return entry;
    },
    done(token) {
      const entry = token as Entry;
      if (stream) stream.write(jsonLine(entry));
      else options.say(textLine(entry));
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
      releaseSlot(RECORD);
      buffered?.close();
    },
  };
}

// What both formats say of a request, read the same way (the JSON line reads them without a fields object).
const requestIdOf = (entry: Entry) => entry.http?.requestId ?? headerText(entry.res.getHeader('x-request-id'));
const methodOf = (entry: Entry) => entry.req.method ?? 'GET';
function pathOf(entry: Entry): string {
  const url = entry.req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
// A reply never written (the client left first) is nginx's 499.
const statusOf = (entry: Entry) => (entry.res.headersSent ? entry.res.statusCode : 499);
/** Whether a line names the call's sources: some answered, or a fallback was asked (both formats). */
const namesSources = (sources: CallSources) => sources.answered.length > 0 || sources.fallback;

/** The text line's fields. */
function fieldsOf(entry: Entry) {
  return {
    requestId: requestIdOf(entry),
    method: methodOf(entry),
    path: pathOf(entry),
    status: statusOf(entry),
    durationMs: Math.round((performance.now() - entry.started) * 10) / 10,
    organization: entry.http?.organization,
  };
}

/**
 * The JSON line, as pino would write `logger.info(fields, 'request')` (level, time, the fields, msg), built
 * by hand: pino's serialization of the fields object was most of the log's cost per request
 * (docs/benchmarks.md, "Observability"). Strings go through jsonString (a path may hold anything). What
 * repeats from request to request (the method, path and status; the organization, credits, outcome and
 * sources) is written once and reused while it stays the same: a line is five pieces, not twenty-five.
 */
function jsonLine(entry: Entry): string {
  const http = entry.http;
  const duration = tenthsText(performance.now() - entry.started);
  const tail = tailText(http?.organization, entry.call);
  // The bindings' request id (request-id.ts: a sane header's, or a UUID) holds nothing JSON escapes: written
  // as it is, without jsonString's scan (~0.1 µs a line), between the time's and the route's pieces.
  if (http instanceof HttpTrace) return isoNow(ID_MILLISECONDS) + http.requestId + routeText(entry).quoted + duration + tail;
  // Any other as JSON.
  const requestId = requestIdOf(entry);
  const id = requestId === undefined ? '' : `,"request_id":${jsonString(requestId)}`;
  return isoNow(MILLISECONDS) + id + routeText(entry).text + duration + tail;
}

/** The last (method, path, status) written: `,"method":…,"path":…,"status":…,"duration_ms":`, and `"` before it. */
let lastRoute = { method: '', path: '', status: -1, text: '', quoted: '' };
function routeText(entry: Entry): { text: string; quoted: string } {
  const method = methodOf(entry);
  const status = statusOf(entry);
  const url = entry.req.url ?? '/';
  const last = lastRoute;
  // The path is the URL up to its first `?`: the last path, then the URL's end or a `?`, is the same path
  // (no slice nor scan of it).
  if (
    method === last.method &&
    status === last.status &&
    url.startsWith(last.path) &&
    (url.length === last.path.length || url.charCodeAt(last.path.length) === 0x3f)
  )
    return last;
  const path = pathOf(entry);
  const text = `,"method":${jsonString(method)},"path":${jsonString(path)},"status":${status},"duration_ms":`;
  lastRoute = { method, path, status, text, quoted: `"${text}` };
  return lastRoute;
}

/** What a line says after its duration, from the organization on: the last one written, and what it said. */
let lastTail = {
  organization: undefined as string | undefined,
  call: false,
  credits: undefined as number | undefined,
  outcome: undefined as string | undefined,
  /** How many sources answered (-1: none was called), and the one that did. */
  answered: -1,
  source: undefined as string | undefined,
  fallback: false,
  hedged: false,
  text: ',"msg":"request"}\n',
};
function tailText(organization: string | undefined, call: CallTraceContext | undefined): string {
  const sources = call === undefined ? undefined : callSources(call);
  const answered = sources?.answered;
  const count = answered === undefined ? -1 : answered.length;
  const source = count === 1 ? answered![0] : undefined;
  const credits = call?.credits;
  const outcome = call?.outcome;
  const fallback = sources?.fallback === true;
  const hedged = sources?.hedged === true;
  const last = lastTail;
  if (
    organization === last.organization &&
    (call !== undefined) === last.call &&
    credits === last.credits &&
    outcome === last.outcome &&
    count === last.answered &&
    source === last.source &&
    fallback === last.fallback &&
    hedged === last.hedged
  )
    return last.text;
  let text = '';
  if (organization !== undefined) text += `,"organization":${jsonString(organization)}`;
  if (call !== undefined) {
    text += `,"credits":${credits ?? 0}`;
    if (outcome !== undefined) text += `,"outcome":${jsonString(outcome)}`;
    if (sources !== undefined) {
      if (namesSources(sources)) {
        text += `,"sources":[`;
        for (let i = 0; i < answered!.length; i++) text += (i === 0 ? '' : ',') + jsonString(answered![i]!);
        text += `],"fallback":${sources.fallback}`;
      }
      if (sources.hedged) text += ',"hedged":true';
    }
  }
  text += ',"msg":"request"}\n';
  // Only a call with at most one answering source is remembered (nearly every one).
  if (count <= 1) lastTail = { organization, call: call !== undefined, credits, outcome, answered: count, source, fallback, hedged, text };
  return text;
}

/**
 * `String(Math.round(ms * 10) / 10)`, from integers: a fraction's shortest decimal form is a slow
 * conversion (~3× the integer's, and one per line); tenths are never negative here but are checked.
 */
export function tenthsText(ms: number): string {
  const tenths = Math.round(ms * 10);
  if (!(tenths >= 0 && tenths < 1e15)) return String(tenths / 10);
  const whole = Math.floor(tenths / 10);
  const tenth = tenths - whole * 10;
  return tenth === 0 ? `${whole}` : `${whole}.${tenth}`;
}

/**
 * `s` as a JSON string, as JSON.stringify writes it: between quotes as it is when it holds only printable
 * ASCII other than `"` and `\` (request ids, methods, paths, organizations, outcomes and source ids nearly
 * always), else JSON.stringify's (escapes, lone surrogates). JSON.stringify is a call into the runtime,
 * ~0.1–0.2 µs each, five or six a line.
 */
export function jsonString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/**
 * The line's start, `{"level":"info","time":"…"`: its part up to the seconds made again once a second
 * (toISOString per line cost ~0.2 µs), the milliseconds from a table (no number formatted per line), with
 * the request id's key after them in ID_MILLISECONDS.
 */
let isoSecond = -1;
let isoPrefix = '';
const MILLISECONDS = Array.from({ length: 1000 }, (_, ms) => `${String(ms).padStart(3, '0')}Z"`);
const ID_MILLISECONDS = MILLISECONDS.map((text) => `${text},"request_id":"`);
function isoNow(milliseconds: readonly string[]): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = `{"level":"info","time":"${new Date(second * 1000).toISOString().slice(0, 20)}`; // …2026-11-26T00:41:05.
  }
  return isoPrefix + milliseconds[now - second * 1000]!;
}

const headerText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function textLine(entry: Entry): string {
  const f = fieldsOf(entry);
  const parts: unknown[] = [new Date().toISOString(), f.method, f.path, f.status, `${Math.round(f.durationMs)}ms`];
  if (f.requestId) parts.push(`id=${f.requestId}`);
  if (f.organization !== undefined) parts.push(`org=${f.organization}`);
  const call = entry.call;
  if (call !== undefined) {
    parts.push(`credits=${call.credits ?? 0}`);
    const sources = callSources(call);
    if (sources !== undefined && namesSources(sources))
      parts.push(`sources=${sources.answered.join(',') || '-'}${sources.fallback ? ' fallback' : ''}`);
  }
  return parts.join(' ');
}
