import { DomainError } from './domain-error';
import {
  CompiledIpLists,
  formatIpAddress,
  IP_LIST_MAX_RANGES,
  IpListRule,
  IpMatchStats,
  parseIpAddress,
  parseIpListAction,
  parseIpRange,
  validateIpListName,
  validateIpListRanges,
  validateIpListResources,
} from './ip-lists';

const RESOURCE = '11111111-1111-4111-8111-111111111111';
const OTHER_RESOURCE = '22222222-2222-4222-8222-222222222222';

const list = (name: string, action: 'Bypass' | 'Deny', ranges: string[], resources: string[] = []): IpListRule => ({
  name,
  action,
  ranges,
  resources,
});

describe('IP ranges', () => {
  it('reads addresses and CIDR networks of both families', () => {
    expect(parseIpRange('10.0.0.0/8')).toEqual({ family: 4, bytes: Uint8Array.from([10, 0, 0, 0]), prefix: 8 });
    expect(parseIpRange(' 192.0.2.7 ')).toEqual({ family: 4, bytes: Uint8Array.from([192, 0, 2, 7]), prefix: 32 });
    expect(parseIpRange('2001:db8::/32')).toMatchObject({ family: 6, prefix: 32 });
    expect(parseIpRange('::/0')).toMatchObject({ family: 6, prefix: 0 });
    expect(parseIpRange('0.0.0.0/0')).toMatchObject({ family: 4, prefix: 0 });
    // an IPv4-mapped range is the IPv4 network it maps
    expect(parseIpRange('::ffff:10.0.0.0/104')).toEqual({ family: 4, bytes: Uint8Array.from([10, 0, 0, 0]), prefix: 8 });
  });

  it('refuses malformed text and prefixes out of range', () => {
    for (const text of [
      '',
      'x',
      '10.0.0',
      '10.0.0.256',
      '10.0.0.0/33',
      '10.0.0.0/',
      '10.0.0.0/08',
      '2001:db8::/129',
      'fe80::1%eth0',
      '10.0.0.0/8/8',
      '1.2.3.4 /8',
    ])
      expect(parseIpRange(text)).toEqual({ kind: 'malformed' });
  });

  it('refuses a prefix that leaves host bits set, naming the network meant', () => {
    expect(parseIpRange('10.0.0.1/8')).toEqual({ kind: 'hostBits', network: '10.0.0.0/8' });
    expect(parseIpRange('2001:db8::1/32')).toEqual({ kind: 'hostBits', network: '2001:db8::/32' });
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(parseIpAddress('::ffff:1.2.3.4')).toEqual({ family: 4, bytes: Uint8Array.from([1, 2, 3, 4]) });
    expect(parseIpAddress('::FFFF:0102:0304')).toEqual({ family: 4, bytes: Uint8Array.from([1, 2, 3, 4]) });
    expect(parseIpAddress('unknown')).toBeNull();
  });

  it('writes addresses back in their usual form', () => {
    expect(formatIpAddress(parseIpAddress('2001:0db8:0:0:1:0:0:0') as never)).toBe('2001:db8:0:0:1::');
    expect(formatIpAddress(parseIpAddress('::1') as never)).toBe('::1');
    expect(formatIpAddress(parseIpAddress('10.1.2.3') as never)).toBe('10.1.2.3');
  });
});

describe('the rules of an IP list', () => {
  const refusal = (rule: () => unknown): string => {
    try {
      rule();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      return (error as DomainError).message;
    }
    throw new Error('accepted');
  };

  it('trims the name and ranges, reads the action in any case, lower-cases resources and drops duplicates', () => {
    expect(validateIpListName(' Office ')).toBe('Office');
    expect(parseIpListAction('deny')).toBe('Deny');
    expect(validateIpListRanges(['10.0.0.0/8', ' 10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
    expect(validateIpListResources([RESOURCE.toUpperCase(), RESOURCE])).toEqual([RESOURCE]);
    expect(validateIpListResources([])).toEqual([]);
  });

  it('names the culprit of every refusal', () => {
    expect(refusal(() => validateIpListRanges(['10.0.0.0/8', '10.0.0.300']))).toBe(
      'ranges[1] "10.0.0.300" is not an IP address or CIDR range.',
    );
    expect(refusal(() => validateIpListRanges(['10.0.0.1/8']))).toBe('ranges[0] "10.0.0.1/8" has host bits set; did you mean 10.0.0.0/8?');
    expect(refusal(() => validateIpListRanges([7]))).toBe('ranges[0] 7 is not an IP address or CIDR range.');
    expect(refusal(() => validateIpListRanges([]))).toBe('ranges must hold at least one range.');
    expect(refusal(() => validateIpListRanges('10.0.0.0/8'))).toBe('ranges must be an array of IP addresses or CIDR ranges.');
    expect(refusal(() => parseIpListAction('Allow'))).toBe('action must be "Bypass" or "Deny".');
    expect(refusal(() => validateIpListName('  '))).toBe('name must be a non-empty string.');
    expect(refusal(() => validateIpListResources(['nope']))).toBe('resources[0] "nope" is not a resource of this account.');
  });

  it('holds at most 1 000 ranges', () => {
    const ranges = (n: number) => Array.from({ length: n }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
    expect(validateIpListRanges(ranges(IP_LIST_MAX_RANGES))).toHaveLength(IP_LIST_MAX_RANGES);
    expect(refusal(() => validateIpListRanges(ranges(IP_LIST_MAX_RANGES + 1)))).toBe(
      'ranges holds 1001 ranges; a list holds at most 1000.',
    );
  });
});

describe('matching an address against the lists', () => {
  it('finds the networks of both families, an IPv4-mapped address in IPv4 ranges', () => {
    const lists = new CompiledIpLists([list('Office', 'Bypass', ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'])]);
    for (const address of ['10.1.2.3', '::ffff:10.9.9.9', '2001:db8:1::5', '192.0.2.7'])
      expect(lists.verdict(address, RESOURCE)).toEqual({ decision: 'bypass', lists: ['Office'] });
    for (const address of ['11.0.0.1', '192.0.2.8', '2001:db9::1', 'unknown'])
      expect(lists.verdict(address, RESOURCE).decision).toBe('none');
    expect(lists.verdict(null, RESOURCE).decision).toBe('none');
  });

  it('lets Deny win over Bypass, and applies a list only to its resources (none named: every resource)', () => {
    const lists = new CompiledIpLists([
      list('Office', 'Bypass', ['10.0.0.0/8']),
      list('Lab', 'Deny', ['10.1.0.0/16'], [OTHER_RESOURCE]),
      list('All', 'Bypass', ['0.0.0.0/0'], [OTHER_RESOURCE]),
    ]);
    expect(lists.verdict('10.1.2.3', RESOURCE)).toEqual({ decision: 'bypass', lists: ['Office'] });
    expect(lists.verdict('10.1.2.3', OTHER_RESOURCE)).toEqual({ decision: 'deny', lists: ['Lab'] });
    expect(lists.verdict('10.2.0.1', OTHER_RESOURCE)).toEqual({ decision: 'bypass', lists: ['Office', 'All'] });
    expect(lists.verdict('8.8.8.8', RESOURCE).decision).toBe('none');
  });

  it('visits at most one node per address bit, however many ranges the lists hold', () => {
    const ranges = (seed: number) => Array.from({ length: IP_LIST_MAX_RANGES }, (_, i) => `${seed}.${i >> 8}.${i & 255}.${(i * 7) & 255}`);
    const v6 = Array.from({ length: IP_LIST_MAX_RANGES }, (_, i) => `2001:db8:${i.toString(16)}::${(i * 13).toString(16)}`);
    const small = new CompiledIpLists([list('One', 'Deny', ['10.0.0.0/8'])]);
    const big = new CompiledIpLists([
      ...Array.from({ length: 20 }, (_, i) => list(`L${i}`, i % 2 ? 'Deny' : 'Bypass', ranges(i + 1))),
      list('V6', 'Deny', v6),
    ]);
    const visited = (lists: CompiledIpLists, address: string) => {
      const stats: IpMatchStats = { nodesVisited: 0 };
      lists.verdict(address, RESOURCE, stats);
      return stats.nodesVisited;
    };
    // 21 000 ranges: a matching IPv4 host walks its 32 bits, the root and the leaf included
    expect(visited(big, '3.0.5.35')).toBeLessThanOrEqual(33);
    expect(big.verdict('3.0.5.35', RESOURCE).decision).toBe('bypass');
    expect(visited(big, '200.1.1.1')).toBeLessThanOrEqual(33);
    expect(visited(big, `2001:db8:3e7::${(999 * 13).toString(16)}`)).toBeLessThanOrEqual(129);
    expect(big.verdict(`2001:db8:3e7::${(999 * 13).toString(16)}`, RESOURCE).decision).toBe('deny');
    // the bound does not grow with the ranges: the same walk as with one list of one range
    expect(visited(small, '10.0.0.1')).toBeLessThanOrEqual(33);
  });
});
