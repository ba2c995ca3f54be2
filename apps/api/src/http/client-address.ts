import { BlockList, isIP } from 'node:net';
import { formatIpAddress, parseIpAddress } from '@twofold/domain';

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is written as `10.0.0.1`. */
function normalize(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1] : trimmed;
}

/**
 * The user's address behind TRUSTED_PROXIES: `X-Forwarded-For` is read from the right, one hop per
 * trusted proxy, and the first address not of a trusted proxy is the client's. A peer that is not a
 * trusted proxy is the client, whatever headers it sends.
 */
export class ClientAddressResolver {
  private readonly trusted = new BlockList();
  private readonly any: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix] = entry.split('/');
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.trusted.addAddress(address, type);
      else this.trusted.addSubnet(address, Number(prefix), type);
    }
    this.any = entries.length > 0;
  }

  isTrusted(address: string): boolean {
    const family = isIP(address);
    if (!this.any || family === 0) return false;
    return this.trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }

  resolve(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    let client = normalize(peer ?? '');
    if (!this.isTrusted(client) || forwardedFor === undefined) return client || 'unknown';
    const hops = ([] as string[])
      .concat(forwardedFor)
      .join(',')
      .split(',')
      .map(normalize)
      .filter((hop) => hop !== '');
    for (let i = hops.length - 1; i >= 0; i -= 1) {
      const hop = hops[i];
      if (isIP(hop) === 0) break;
      client = hop;
      if (!this.isTrusted(hop)) break;
    }
    return client;
  }
}

/**
 * The network a client address counts as, for throttles and code lockouts: an IPv4 address, or an
 * IPv6 address's /64 network. One host
 * is handed a whole /64 (SLAAC, privacy addresses), so counting exact IPv6 addresses would give an
 * attacker 2^64 fresh budgets. An IPv4-mapped IPv6 address counts as its IPv4.
 * Parsed by the IP lists' parser (libs/domain ip-lists.ts), so both see one address alike.
 */
export function addressNetworkOf(ip: string): string {
  const address = parseIpAddress(ip);
  if (!address) return ip.split('%')[0].toLowerCase();
  if (address.family === 4) return formatIpAddress(address);
  const network = [0, 1, 2, 3].map((i) => ((address.bytes[2 * i] << 8) | address.bytes[2 * i + 1]).toString(16));
  return `${network.join(':')}::/64`;
}
