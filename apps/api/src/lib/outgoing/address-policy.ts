import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which network addresses an outgoing request may reach (ADR 55). Only public unicast addresses: ipaddr.js names the
 * special ranges (loopback, private, link-local, unique-local, CGNAT, multicast, broadcast, unspecified, reserved,
 * benchmarking, NAT64, 6to4, Teredo, IPv4-translated…), and anything it does not call `unicast` is refused. IPv6
 * must also be global unicast (2000::/3): that refuses the IPv4-compatible form `::7f00:1` (::/96), which ipaddr.js
 * calls unicast. An IPv4-mapped address (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is judged as the IPv4 it carries.
 * Hex, octal and decimal IPv4 (`0x7f.1`, `0177.0.0.1`, `2130706433`) are parsed as IPv4, as URL parsers and
 * getaddrinfo read them.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
  }
  return parsed.range() === 'unicast';
}

/** An IP literal (any form ipaddr.js reads, brackets allowed), as opposed to a name to resolve. */
export function isAddressLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return isIP(bare) !== 0 || ipaddr.isValid(bare);
}

/** Host names that name this machine or its private network whatever DNS says. */
export function isInternalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal') || name.endsWith('.home.arpa') || !name.includes('.');
}
