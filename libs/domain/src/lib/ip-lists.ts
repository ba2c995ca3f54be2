import { isIP } from 'node:net';
import { ValidationFailed } from './domain-error';
import { isUuid } from './record-id';

/**
 * IP lists: named sets of networks whose requests are let in without a code (`Bypass`) or
 * refused (`Deny`), for every resource of the account or for the ones named. The rules of a list's
 * name, action, ranges and resources (the API reads its body with them), and matching an address against an account's lists with a binary prefix trie: the
 * work per address is bounded by its bit length (32 or 128 steps), whatever the number of ranges.
 */

export const IP_LIST_ACTIONS = ['Bypass', 'Deny'] as const;
export type IpListAction = (typeof IP_LIST_ACTIONS)[number];
/** Ranges per list at most: a console's list of offices and VPN egresses, not a threat feed. */
export const IP_LIST_MAX_RANGES = 1000;
export const IP_LIST_NAME_MAX_LENGTH = 100;
/** Resources a list may name at most (an account's resources are few; the bound keeps the body small). */
export const IP_LIST_MAX_RESOURCES = 1000;

/** An address as bytes: 4 for IPv4 (IPv4-mapped IPv6 included), 16 for IPv6. */
export interface IpAddressBytes {
  family: 4 | 6;
  bytes: Uint8Array;
}

/** A network: its address with every host bit zero, and its prefix length. */
export interface IpNetwork extends IpAddressBytes {
  prefix: number;
}

function ipv4Bytes(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map(Number));
}

/** 16 bytes of an IPv6 address that node:net already accepted (an embedded IPv4 tail included). */
function ipv6Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(16);
  const words = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const group of part.split(':')) {
      if (group.includes('.')) {
        const v4 = ipv4Bytes(group);
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else {
        out.push(parseInt(group, 16));
      }
    }
    return out;
  };
  const [head, tail] = text.split('::');
  const left = words(head);
  const right = tail === undefined ? [] : words(tail);
  // node:net validated the text; a count that does not add up reads as the unspecified address rather than throwing
  const zeros = Math.max(0, 8 - left.length - right.length);
  const all = [...left, ...Array<number>(zeros).fill(0), ...right].slice(0, 8);
  all.forEach((word, i) => {
    bytes[2 * i] = word >> 8;
    bytes[2 * i + 1] = word & 0xff;
  });
  return bytes;
}

function isIpv4Mapped(bytes: Uint8Array): boolean {
  for (let i = 0; i < 10; i += 1) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

/**
 * An IP address as bytes, or null when the text is not one. An IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`) is its IPv4 address, so it matches IPv4 ranges. A zone (`fe80::1%eth0`) is dropped.
 */
export function parseIpAddress(raw: string): IpAddressBytes | null {
  const text = raw.trim().split('%')[0];
  const family = isIP(text);
  if (family === 4) return { family: 4, bytes: ipv4Bytes(text) };
  if (family !== 6) return null;
  const bytes = ipv6Bytes(text);
  return isIpv4Mapped(bytes) ? { family: 4, bytes: bytes.slice(12) } : { family: 6, bytes };
}

function bitOf(bytes: Uint8Array, index: number): number {
  return (bytes[index >> 3] >> (7 - (index & 7))) & 1;
}

function hasHostBits(bytes: Uint8Array, prefix: number): boolean {
  for (let i = prefix; i < bytes.length * 8; i += 1) if (bitOf(bytes, i) === 1) return true;
  return false;
}

function withoutHostBits(bytes: Uint8Array, prefix: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  for (let i = prefix; i < out.length * 8; i += 1) out[i >> 3] &= ~(1 << (7 - (i & 7)));
  return out;
}

/** An address written the usual way: dotted IPv4, IPv6 with its longest run of zero groups as `::`. */
export function formatIpAddress(address: IpAddressBytes): string {
  if (address.family === 4) return Array.from(address.bytes).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (address.bytes[2 * i] << 8) | address.bytes[2 * i + 1]);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

export type IpRangeRefusal = { kind: 'malformed' } | { kind: 'hostBits'; network: string };

/**
 * A range as an administrator writes it: an address (`192.0.2.7`, a host: /32 or /128) or a CIDR
 * network (`10.0.0.0/8`, `2001:db8::/32`). A prefix that leaves host bits set (`10.0.0.1/8`) is refused
 * rather than silently widened: the administrator may have meant a host or another network. An
 * IPv4-mapped IPv6 range of /96 or longer is the IPv4 network it maps.
 */
export function parseIpRange(raw: string): IpNetwork | IpRangeRefusal {
  const text = raw.trim();
  const match = /^([^/\s%]+)(?:\/(\d{1,3}))?$/.exec(text);
  if (!match) return { kind: 'malformed' };
  const family = isIP(match[1]);
  if (family === 0) return { kind: 'malformed' };
  let bytes = family === 4 ? ipv4Bytes(match[1]) : ipv6Bytes(match[1]);
  const bits = bytes.length * 8;
  let prefix = match[2] === undefined ? bits : Number(match[2]);
  if (prefix > bits || (match[2] !== undefined && match[2].length > 1 && match[2].startsWith('0'))) return { kind: 'malformed' };
  if (hasHostBits(bytes, prefix)) {
    const network = formatIpAddress({ family: family as 4 | 6, bytes: withoutHostBits(bytes, prefix) });
    return { kind: 'hostBits', network: `${network}/${prefix}` };
  }
  if (family === 6 && prefix >= 96 && isIpv4Mapped(bytes)) {
    bytes = bytes.slice(12);
    prefix -= 96;
    return { family: 4, bytes, prefix };
  }
  return { family: family as 4 | 6, bytes, prefix };
}

/** An IP list as it is written: the body of `POST /ip-lists` and `PUT /ip-lists/{id}`, judged; resource ids are checked against the account by the API. */
export interface IpListInput {
  name: string;
  /** as written, trimmed, duplicates dropped, in the order given */
  ranges: string[];
  action: IpListAction;
  /** lower-case resource ids, duplicates dropped; empty: every resource of the account */
  resources: string[];
}

/** A range's place and text in a refusal: `ranges[2] "10.0.0.1/8"` (cut, so a huge string is not echoed whole). */
function culprit(field: string, index: number, value: unknown): string {
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value) : String(value);
  return `${field}[${index}] ${shown}`;
}

export function refusalOfIpResource(index: number, value: unknown): string {
  return `${culprit('resources', index, value)} is not a resource of this account.`;
}

/** A list's name: trimmed, not empty, at most IP_LIST_NAME_MAX_LENGTH characters. */
export function validateIpListName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationFailed('name must be a non-empty string.');
  const name = raw.trim();
  if ([...name].length > IP_LIST_NAME_MAX_LENGTH) throw new ValidationFailed(`name must be at most ${IP_LIST_NAME_MAX_LENGTH} characters.`);
  return name;
}

/** `Bypass` or `Deny`, in any case. */
export function parseIpListAction(raw: unknown): IpListAction {
  const known = IP_LIST_ACTIONS.find((candidate) => typeof raw === 'string' && candidate.toLowerCase() === raw.trim().toLowerCase());
  if (!known) throw new ValidationFailed('action must be "Bypass" or "Deny".');
  return known;
}

/**
 * One to IP_LIST_MAX_RANGES addresses or CIDR networks, trimmed, duplicates dropped; a refusal names
 * the range's position and text, and for host bits set, the network meant.
 */
export function validateIpListRanges(raw: unknown): string[] {
  if (!Array.isArray(raw)) throw new ValidationFailed('ranges must be an array of IP addresses or CIDR ranges.');
  if (raw.length === 0) throw new ValidationFailed('ranges must hold at least one range.');
  if (raw.length > IP_LIST_MAX_RANGES)
    throw new ValidationFailed(`ranges holds ${raw.length} ranges; a list holds at most ${IP_LIST_MAX_RANGES}.`);
  const ranges: string[] = [];
  raw.forEach((range: unknown, index) => {
    if (typeof range !== 'string') throw new ValidationFailed(`${culprit('ranges', index, range)} is not an IP address or CIDR range.`);
    const parsed = parseIpRange(range);
    if ('kind' in parsed) {
      if (parsed.kind === 'hostBits')
        throw new ValidationFailed(`${culprit('ranges', index, range)} has host bits set; did you mean ${parsed.network}?`);
      throw new ValidationFailed(`${culprit('ranges', index, range)} is not an IP address or CIDR range.`);
    }
    const text = range.trim();
    if (!ranges.includes(text)) ranges.push(text);
  });
  return ranges;
}

/** At most IP_LIST_MAX_RESOURCES resource ids (UUIDs), lower-cased, duplicates dropped; none: every resource. */
export function validateIpListResources(raw: unknown): string[] {
  if (!Array.isArray(raw)) throw new ValidationFailed('resources must be an array of resource ids.');
  if (raw.length > IP_LIST_MAX_RESOURCES) throw new ValidationFailed(`resources must hold at most ${IP_LIST_MAX_RESOURCES} ids.`);
  const resources: string[] = [];
  raw.forEach((id: unknown, index) => {
    if (!isUuid(id)) throw new ValidationFailed(refusalOfIpResource(index, id));
    const lower = id.toLowerCase();
    if (!resources.includes(lower)) resources.push(lower);
  });
  return resources;
}

/** A list as the matcher needs it. */
export interface IpListRule {
  name: string;
  action: IpListAction;
  ranges: readonly string[];
  /** empty: every resource */
  resources: readonly string[];
}

interface TrieNode {
  zero?: TrieNode;
  one?: TrieNode;
  /** indexes of the lists with a range ending at this node */
  lists?: number[];
}

/** How much a match looked at: the unit spec proves the work is bounded by the address's bits. */
export interface IpMatchStats {
  nodesVisited: number;
}

/** The lists that apply to an address and resource; Deny wins (`decision`). */
export interface IpListVerdict {
  decision: 'deny' | 'bypass' | 'none';
  /** names of the lists of the deciding action that matched, in the account's order */
  lists: string[];
}

export const NO_IP_LIST_VERDICT: IpListVerdict = { decision: 'none', lists: [] };

/**
 * An account's lists compiled into one binary trie per address family: a range is a path of its
 * prefix bits, its list's index stored at the path's end. Matching walks the address's bits from the
 * root and collects the lists stored on the way: at most 33 (IPv4) or 129 (IPv6) nodes, however many
 * ranges the account has.
 */
export class CompiledIpLists {
  private readonly roots: Record<4 | 6, TrieNode> = { 4: {}, 6: {} };
  /** per list: the resources it names, null for every resource */
  private readonly resourceSets: (ReadonlySet<string> | null)[];

  constructor(private readonly lists: readonly IpListRule[]) {
    this.resourceSets = lists.map((list) => (list.resources.length === 0 ? null : new Set(list.resources)));
    lists.forEach((list, index) => {
      for (const text of list.ranges) {
        const network = parseIpRange(text);
        // stored ranges were validated when written; one that no longer parses matches nothing
        if ('kind' in network) continue;
        let node = this.roots[network.family];
        for (let bit = 0; bit < network.prefix; bit += 1) {
          const side = bitOf(network.bytes, bit) === 1 ? 'one' : 'zero';
          node = node[side] ??= {};
        }
        node.lists ??= [];
        if (!node.lists.includes(index)) node.lists.push(index);
      }
    });
  }

  get size(): number {
    return this.lists.length;
  }

  /** The verdict for a user's address on a resource; an unknown or unparsable address matches nothing. */
  verdict(address: string | null, resourceId: string, stats?: IpMatchStats): IpListVerdict {
    if (address === null || this.lists.length === 0) return NO_IP_LIST_VERDICT;
    const parsed = parseIpAddress(address);
    if (!parsed) return NO_IP_LIST_VERDICT;
    const matched = new Set<number>();
    let node: TrieNode | undefined = this.roots[parsed.family];
    const bits = parsed.bytes.length * 8;
    for (let bit = 0; node; bit += 1) {
      if (stats) stats.nodesVisited += 1;
      for (const index of node.lists ?? []) {
        const resources = this.resourceSets[index];
        if (resources === null || resources.has(resourceId)) matched.add(index);
      }
      if (bit === bits) break;
      node = bitOf(parsed.bytes, bit) === 1 ? node.one : node.zero;
    }
    const names = (action: IpListAction) =>
      [...matched]
        .sort((a, b) => a - b)
        .filter((index) => this.lists[index].action === action)
        .map((index) => this.lists[index].name);
    const deny = names('Deny');
    if (deny.length > 0) return { decision: 'deny', lists: deny };
    const bypass = names('Bypass');
    return bypass.length > 0 ? { decision: 'bypass', lists: bypass } : NO_IP_LIST_VERDICT;
  }
}
