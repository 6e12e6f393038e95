// An undici connector that applies the address policy to every connection it opens, at three points:
// IP-literal hosts before connecting (undici does no lookup for them), every address a name resolves to
// (inside `lookup`), and the socket's actual remote address after connecting, before undici writes a byte.

import dns from 'node:dns';
import net from 'node:net';
import { buildConnector } from 'undici';
import { blockedReason, isIpLiteral } from './address-policy.js';

/** dns.lookup-compatible resolver (tests inject one to make `evil.test` resolve to 127.0.0.1). */
export type LookupFunction = (
  hostname: string,
  options: dns.LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
) => void;

/** Thrown (as a connect error) when the address policy refuses a connection. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError' as const;
  readonly code = 'WEBSIFT_BLOCKED_ADDRESS';
}

export interface GuardOptions {
  /** Skip the policy entirely (tests, intranet deployments). */
  allowPrivateNetwork: boolean;
  /** Exact `ip:port` endpoints exempt from the policy (`[::1]:8080` for IPv6), e.g. one local test server. */
  allowEndpoints: readonly string[];
  lookup: LookupFunction;
  connectTimeoutMs: number;
}

const unbracket = (host: string): string => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);
const endpoint = (ip: string, port: number): string => (net.isIPv6(ip) ? `[${ip}]:${port}` : `${ip}:${port}`);

export function createGuardedConnector(options: GuardOptions): buildConnector.connector {
  const allowed = new Set(options.allowEndpoints);

  /** Why connecting to (ip, port) is refused, or null. */
  const refuse = (rawIp: string, port: number): string | null => {
    if (options.allowPrivateNetwork) return null;
    // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; compare the IPv4 form with the allow-list.
    const ip = /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(rawIp) ? rawIp.slice(7) : rawIp;
    if (allowed.has(endpoint(ip, port))) return null;
    return blockedReason(ip);
  };

  // Checks every resolved address; one bad address refuses them all (a DNS-rebinding answer mixes them).
  const lookupFor =
    (port: number): LookupFunction =>
    (hostname, lookupOptions, callback) => {
      options.lookup(hostname, { ...lookupOptions, all: true }, (err, result) => {
        if (err) return callback(err, '');
        const list = Array.isArray(result) ? result : [{ address: result, family: net.isIPv6(result) ? 6 : 4 }];
        if (list.length === 0) {
          return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        }
        for (const entry of list) {
          const reason = refuse(entry.address, port);
          if (reason !== null) return callback(new BlockedAddressError(`${hostname} resolves to a ${reason}`), '');
        }
        if (lookupOptions.all) return callback(null, list);
        const first = list[0]!;
        callback(null, first.address, first.family);
      });
    };

  // The lookup must know the port to honour `ip:port` allow-list entries, so there is one undici
  // connector per port (in practice two: 80 and 443).
  const bases = new Map<number, buildConnector.connector>();
  const baseFor = (port: number): buildConnector.connector => {
    let base = bases.get(port);
    if (!base) {
      base = buildConnector({ timeout: options.connectTimeoutMs, lookup: lookupFor(port) } as buildConnector.BuildOptions);
      bases.set(port, base);
    }
    return base;
  };

  return (connectOptions, callback) => {
    const host = unbracket(connectOptions.hostname);
    const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
    if (isIpLiteral(host)) {
      const reason = refuse(host, port);
      if (reason !== null) {
        queueMicrotask(() => callback(new BlockedAddressError(`Refused to connect to a ${reason}`), null));
        return;
      }
    }
    baseFor(port)(connectOptions, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error('connect failed'), null);
      // Backstop: whatever the resolver said, judge the address actually connected to.
      const remote = socket.remoteAddress;
      const reason = remote === undefined ? 'unknown remote address' : refuse(remote, socket.remotePort ?? port);
      if (reason !== null) {
        socket.destroy();
        return callback(new BlockedAddressError(`Connected to a ${reason}; closed before sending`), null);
      }
      callback(null, socket);
    });
  };
}

/** The system resolver, as a LookupFunction. */
export const systemLookup: LookupFunction = (hostname, options, callback) =>
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => callback(err, addresses));
