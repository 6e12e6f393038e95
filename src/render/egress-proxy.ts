// The only way out of the browser: a forward proxy on 127.0.0.1 that Chromium is launched behind.
// Every connection the page makes (documents, redirect hops, fetch/XHR, workers, preconnects, WebSocket
// tunnels) reaches this proxy first, and the proxy opens the upstream socket itself through the fetcher's
// guarded connector, so the address policy of src/fetch is applied to the address actually dialled
// (no DNS-rebinding gap between a check and the browser's own lookup). Request routing in the page cannot
// do this alone: Playwright does not route redirect hops, and preconnects never become routed requests.

import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { createGuardedConnector, type GuardOptions } from '../fetch/guarded-connector.js';
import { listenOnLoopback } from '../net/loopback-server.js';

/** Header on the proxy's refusal, so the renderer can tell a policy block from an upstream answer. */
export const BLOCKED_HEADER = 'x-websift-blocked';
/** Header on the proxy's 502 when the upstream could not be reached (DNS, refused, timeout). */
export const UPSTREAM_ERROR_HEADER = 'x-websift-upstream-error';

/** Why the proxy could not open a connection to a host. */
export interface EgressFailure {
  blocked: boolean;
  message: string;
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  readonly server: string;
  /** Recent failures by `host:port` (the last 256), for mapping a failed tunnel back to its reason. */
  failureFor(host: string, port: number): EgressFailure | undefined;
  close(): Promise<void>;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own headers are not forwarded upstream.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const hostKey = (host: string, port: number): string => `${host.replace(/^\[|\]$/g, '').toLowerCase()}:${port}`;

export interface EgressProxyOptions {
  /** Told of every connection the address policy refused (`host:port` as the page asked for it). */
  onBlocked?: (target: string, reason: string) => void;
}

export async function startEgressProxy(guard: GuardOptions, options: EgressProxyOptions = {}): Promise<EgressProxy> {
  const connector = createGuardedConnector(guard);
  const recentFailures = new Map<string, EgressFailure>();

  const isBlock = (e: unknown): boolean => (e as { code?: string }).code === 'WEBSIFT_BLOCKED_ADDRESS';
  const remember = (host: string, port: number, e: Error): void => {
    recentFailures.delete(hostKey(host, port));
    recentFailures.set(hostKey(host, port), { blocked: isBlock(e), message: e.message });
    if (isBlock(e)) options.onBlocked?.(hostKey(host, port), e.message);
    if (recentFailures.size > 256) recentFailures.delete(recentFailures.keys().next().value as string);
  };

  /** A raw TCP socket to host:port, opened only if the address policy allows it. */
  const dial = (host: string, port: number): Promise<net.Socket> =>
    new Promise((resolve, reject) => {
      const hostname = host.startsWith('[') ? host : net.isIPv6(host) ? `[${host}]` : host;
      connector({ hostname, host: `${hostname}:${port}`, port: String(port), protocol: 'http:' }, (err, socket) => {
        if (err || !socket) {
          const e = err ?? new Error('connect failed');
          remember(host, port, e);
          return reject(e);
        }
        resolve(socket as net.Socket);
      });
    });

  const server = http.createServer((req, res) => {
    // Only absolute-form http:// requests are proxied (https arrives as CONNECT).
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('scheme');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('websift egress proxy: absolute http URL expected');
      return;
    }
    const port = Number(target.port) || 80;
    dial(target.hostname, port).then(
      (socket) => {
        const headers: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
        }
        headers.host = target.host;
        const upstream = http.request({
          method: req.method,
          path: `${target.pathname}${target.search}`,
          headers,
          createConnection: () => socket,
        });
        upstream.on('response', (answer) => {
          const out: http.OutgoingHttpHeaders = {};
          for (const [name, value] of Object.entries(answer.headers)) {
            if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
          }
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        });
        upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
        res.on('close', () => upstream.destroy());
        req.pipe(upstream);
      },
      (e: unknown) => {
        const status = isBlock(e) ? 403 : 502;
        const header = isBlock(e) ? BLOCKED_HEADER : UPSTREAM_ERROR_HEADER;
        const headers = { [header]: encodeURIComponent((e as Error).message) };
        res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(`websift egress proxy: ${(e as Error).message}`);
      },
    );
  });

  // CONNECT tunnels: https and every WebSocket (Chromium tunnels ws:// through an HTTP proxy too).
  server.on('connect', (req, client: Duplex, head: Buffer) => {
    listener.track(client);
    client.on('error', () => client.destroy());
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    if (!m) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const host = m[1]!.replace(/^\[|\]$/g, '');
    const port = Number(m[2]);
    dial(host, port).then(
      (upstream) => {
        listener.track(upstream);
        upstream.on('close', () => client.destroy());
        upstream.on('error', () => upstream.destroy());
        client.on('close', () => upstream.destroy());
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      },
      (e: unknown) => {
        const line = isBlock(e) ? '403 Forbidden' : '502 Bad Gateway';
        client.end(`HTTP/1.1 ${line}\r\n${isBlock(e) ? `${BLOCKED_HEADER}: ${encodeURIComponent((e as Error).message)}\r\n` : ''}\r\n`);
      },
    );
  });

  // Upgrade requests in absolute form are not used by Chromium behind a proxy; refuse them.
  server.on('upgrade', (_req, socket: Duplex) => socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'));
  const listener = await listenOnLoopback(server);

  return {
    server: `http://127.0.0.1:${listener.port}`,
    failureFor: (host, p) => recentFailures.get(hostKey(host, p)),
    close: listener.close,
  };
}
