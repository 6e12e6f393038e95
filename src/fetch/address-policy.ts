// Which network addresses websift may connect to. One place for the policy: the fetcher (and the stealth
// renderer) ask `blockedReason` for every address they are about to use, so a page can never make websift
// reach loopback, the private network, or a cloud metadata endpoint.

import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

// ipaddr.js range names of IPv4 addresses that are publicly routable. Everything else is refused.
const PUBLIC_V4 = new Set(['unicast', 'as112', 'amt']);

// ipaddr.js range names of IPv6 addresses inside 2000::/3 that are publicly routable.
const PUBLIC_V6 = new Set(['unicast', 'as112v6', 'amt']);

// A friendlier word for the ipaddr.js range names, used in error messages.
const WORDS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (shared)',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  benchmarking: 'benchmarking',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHID',
  droneRemoteIdProtocolEntityTags: 'reserved',
  segmentRouting: 'segment-routing',
};

const word = (range: string): string => WORDS[range] ?? range;

function checkV4(ip: IPv4): string | null {
  const range = ip.range();
  return PUBLIC_V4.has(range) ? null : `${word(range)} address ${ip.toString()}`;
}

/** The IPv4 address carried in 32 bits of an IPv6 address, starting at 16-bit part `index`. */
function v4At(ip: IPv6, index: number, invert = false): IPv4 {
  const hi = ip.parts[index] ?? 0;
  const lo = ip.parts[index + 1] ?? 0;
  const mask = invert ? 0xff : 0;
  return new ipaddr.IPv4([(hi >> 8) ^ mask, (hi & 0xff) ^ mask, (lo >> 8) ^ mask, (lo & 0xff) ^ mask]);
}

function checkV6(ip: IPv6): string | null {
  const range = ip.range();
  const embedded = (v4: IPv4, how: string): string | null => {
    const reason = checkV4(v4);
    return reason === null ? null : `${how} ${reason}`;
  };
  switch (range) {
    // Forms that carry an IPv4 address: judge the IPv4 address they lead to.
    case 'ipv4Mapped':
    case 'rfc6145':
      return embedded(v4At(ip, 6), 'IPv4-mapped');
    case 'rfc6052': {
      // 64:ff9b::/96 is the well-known NAT64 prefix; 64:ff9b:1::/48 is for local use only.
      if (ip.parts[2] === 1) return `local-use NAT64 address ${ip.toString()}`;
      return embedded(v4At(ip, 6), 'NAT64');
    }
    case '6to4':
      return embedded(v4At(ip, 1), '6to4');
    case 'teredo':
      // The client address is stored inverted in the last 32 bits.
      return embedded(v4At(ip, 6, true), 'Teredo');
  }
  // ::/96 (IPv4-compatible, deprecated) is "unicast" to ipaddr.js: refuse it, like everything outside 2000::/3.
  const first = ip.parts[0] ?? 0;
  if ((first & 0xe000) !== 0x2000) return `non-global IPv6 address ${ip.toString()} (${word(range)})`;
  return PUBLIC_V6.has(range) ? null : `${word(range)} address ${ip.toString()}`;
}

/**
 * Why websift must not connect to `ip`, or null when it may. Accepts IPv4 dotted quads and IPv6 (with or
 * without brackets or a zone id). Anything that is not an IP address is refused, as a safe default.
 */
export function blockedReason(ip: string): string | null {
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return checkV4(ipaddr.IPv4.parse(text));
  if (ipaddr.IPv6.isValid(text)) return checkV6(ipaddr.IPv6.parse(text));
  return `not an IP address: ${JSON.stringify(ip)}`;
}

/** True when `host` (a URL hostname, brackets allowed) is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  const text = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

/**
 * The address policy applied to a URL's host when it is an IP literal (the WHATWG parser has already
 * rewritten decimal, octal and hex IPv4 forms to dotted quads). Names return null: they are checked
 * when resolved, since a DNS lookup is not done for literals.
 */
export function checkUrlHost(url: URL): string | null {
  return isIpLiteral(url.hostname) ? blockedReason(url.hostname) : null;
}
