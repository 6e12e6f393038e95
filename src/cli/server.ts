// The CLI's HTTP server: the node handler behind node:http, one log line per request, and a shutdown
// that stops accepting, lets in-flight requests finish (so settled charges are answered) and then
// closes the engine. Connections are bounded (src/cli/server-limits.ts): their number, and how long one may
// sit idle or take to send its request.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { abortConnection, createNodeHandler } from '../http/node-handler.js';
import type { Engine } from '../types/index.js';
import { say } from './output.js';
import type { RequestEntry, RequestLog } from './request-log.js';
import { checkServerLimits, DEFAULT_SERVER_LIMITS, type ServerLimits, TIMEOUT_CHECK_INTERVAL_MS } from './server-limits.js';

export interface ServeOptions {
  engine: Engine;
  host: string;
  port: number;
  /** Answers a request before the API does (the demo serves its corpus); false: not handled. */
  preHandler?: (req: IncomingMessage, res: ServerResponse) => boolean;
  log?: (line: string) => void;
  /** One line per request from the tracing channels (request-log.ts); default: a plain text line on `log`. */
  requestLog?: RequestLog;
  /** Default DEFAULT_SERVER_LIMITS, limit by limit. */
  limits?: Partial<ServerLimits>;
}

export interface RunningServer {
  url: string;
  /**
   * Stops accepting, waits up to `graceMs` for in-flight requests, then drops what is left (a client
   * that never finishes its request must not hold the shutdown forever). The engine is not closed here.
   * Resolves to the number of requests that were dropped.
   */
  close(graceMs?: number): Promise<number>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? say;
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  checkServerLimits(limits);
  const api = createNodeHandler(options.engine, {
    // The handler's own bound on a body (a JSON 408) is the request timeout, node:http's its backstop.
    bodyTimeoutMs: limits.requestTimeoutMs,
    onError: (error, request) =>
      options.requestLog
        ? options.requestLog.error(error, request)
        : log(`error ${request.method} ${new URL(request.url).pathname}: ${(error as Error)?.stack ?? String(error)}`),
    health: true, // /healthz and /readyz, without a key
  });
  /** A request to the pre-handler, then the API: one function for every request (no closure made per request). */
  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    if (!options.preHandler?.(req, res)) api(req, res);
  };
  let inFlight = 0;
  /** The open connections: a drop aborts the calls of those with a request unanswered (the handler counts them). */
  const open = new Set<Socket>();
  let idle: (() => void) | undefined;
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.idleTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    (req, res) => {
      // The request has begun: from here the header and request timeouts bound it, not the idle one.
      req.socket.setTimeout(0);
      const requestLog = options.requestLog;
      // The plain line's start (the access log keeps its own): no clock read per request when there is a log.
      const started = requestLog ? 0 : performance.now();
      inFlight++;
      let entry: RequestEntry | undefined;
      // The one close listener of a request: the access log's line is written from it too.
      res.once('close', () => {
        inFlight--;
        if (requestLog) {
          if (entry) requestLog.done(entry);
        } else {
          const path = (req.url ?? '/').split('?')[0];
          log(`${new Date().toISOString()} ${req.method} ${path} ${res.statusCode} ${Math.round(performance.now() - started)}ms`);
        }
        if (inFlight === 0) idle?.();
      });
      if (requestLog) entry = requestLog.open(req, res, dispatch);
      else dispatch(req, res);
    },
  );
  server.maxConnections = limits.maxConnections;
  // node:http's timeouts are a request's: only the header timeout, checked now and then, ends a
  // connection that sends nothing. The idle timeout ends it sooner: an idle socket's 'timeout' with no
  // listener destroys it (node:http's socketOnTimeout).
  server.on('connection', (socket) => {
    socket.setTimeout(limits.idleTimeoutMs);
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('drop', reportDrops(limits.maxConnections, log));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    async close(graceMs = 30_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive sockets would hold close() open; busy ones close after their response.
      server.closeIdleConnections();
      let dropped = 0;
      if (inFlight > 0) {
        let timer: NodeJS.Timeout | undefined;
        const finished = await Promise.race([
          new Promise<boolean>((resolve) => (idle = () => resolve(true))),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
        ]);
        clearTimeout(timer);
        if (!finished) {
          dropped = inFlight;
          // Their calls are aborted first, at once: a socket's 'close' (which aborts them otherwise) comes
          // an event-loop turn after closeAllConnections, and a source answering meanwhile would let the
          // call charge for an answer nobody receives. A charge already begun completes.
          const reason = new DOMException('The server dropped the request at the end of its grace period', 'AbortError');
          for (const socket of open) abortConnection(socket, reason);
          server.closeAllConnections();
        }
      }
      server.closeIdleConnections();
      await closed;
      return dropped;
    },
  };
}

/** Logs refused connections at most once per DROP_REPORT_MS: a flood must not flood the log too. */
export function reportDrops(max: number, log: (line: string) => void): () => void {
  let dropped = 0;
  return () => {
    if (dropped++ > 0) return;
    setTimeout(() => {
      log(`${new Date().toISOString()} refused ${dropped} connection(s): ${max} already open (--max-connections)`);
      dropped = 0;
    }, DROP_REPORT_MS).unref();
  };
}

export const DROP_REPORT_MS = 10_000;

/** Resolves on the first SIGINT or SIGTERM; a second one exits at once. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      // The second-signal handlers first: with no listener for an instant, a signal would kill the
      // process outright.
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
