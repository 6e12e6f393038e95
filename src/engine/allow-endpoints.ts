// The `allowEndpoints` option's entries in one canonical form: checked by createEngine's option checks
// (options.ts) and compared by the extraction's address policy (extraction.ts), which both import it.

import ipaddr from 'ipaddr.js';

/**
 * One `allowEndpoints` entry in the form the address policy compares with the address actually
 * connected to: `a.b.c.d:port` or `[ipv6]:port` (RFC 5952 text; an IPv4-mapped IPv6 address becomes
 * its IPv4 form). Throws a TypeError naming the entry for anything else, a host name included: the
 * policy checks addresses after DNS, so an entry names the IP the host resolves to.
 */
export function normalizeEndpoint(entry: unknown): string {
  const refuse = (why: string) =>
    new TypeError(
      `createEngine: allowEndpoints entry ${JSON.stringify(entry)} ${why}; write 'ip:port', e.g. '127.0.0.1:8080' or '[::1]:8080'`,
    );
  if (typeof entry !== 'string') throw refuse('is not a string');
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(entry.trim());
  if (!match) throw refuse('is not an ip:port pair');
  const [, v6, v4, portText] = match;
  const port = Number(portText);
  if (port < 1 || port > 65535) throw refuse('has a port outside 1–65535');
  if (v6 !== undefined) {
    if (!ipaddr.IPv6.isValid(v6)) throw refuse('does not hold an IPv6 address in its brackets');
    const address = ipaddr.IPv6.parse(v6);
    return address.isIPv4MappedAddress() ? `${address.toIPv4Address().toString()}:${port}` : `[${address.toRFC5952String()}]:${port}`;
  }
  if (!ipaddr.IPv4.isValidFourPartDecimal(v4!)) {
    throw refuse(
      'names a host, not an IP address (the policy checks the address connected to, after DNS: give the IP the host resolves to)',
    );
  }
  return `${ipaddr.IPv4.parse(v4!).toString()}:${port}`;
}
