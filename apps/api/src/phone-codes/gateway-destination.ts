import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * An account's own gateway is a URL its administrator chose: without a guard, the service would POST
 * (and, through `successContains`, answer yes or no about) whatever its own network reaches, such as
 * a cloud metadata endpoint or an internal admin API. So an account's gateway may only reach public
 * addresses, unless the operator allows private ones (PHONE_GATEWAYS_ALLOW_PRIVATE, for a provider
 * inside the customer's own network on a single-tenant install). The service-wide gateways are the
 * operator's own and are not checked.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? PRIVATE.check(mapped[1], 'ipv4') : PRIVATE.check(address, 'ipv6');
  }
  return true;
}

/** Whether every address the gateway's host resolves to is public; a host that does not resolve is refused too. */
export async function reachesOnlyPublicAddresses(url: string): Promise<boolean> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  try {
    const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
    return addresses.length > 0 && addresses.every((a) => !isPrivateAddress(a.address));
  } catch {
    return false;
  }
}
