import { DomainError, IP_LIST_MAX_RANGES } from '@twofold/domain';
import { parseIpListBody } from './ip-lists.commands';

const RESOURCE = '11111111-1111-4111-8111-111111111111';

function refusal(body: unknown): string {
  try {
    parseIpListBody(body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error('accepted');
}

describe('the body of an IP list', () => {
  const valid = { name: ' Office ', ranges: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'], action: 'Bypass', resources: [RESOURCE] };

  it('is read with keys in any case, trimmed, duplicates dropped', () => {
    expect(
      parseIpListBody({
        NAME: 'Office',
        Ranges: ['10.0.0.0/8', ' 10.0.0.0/8'],
        ACTION: 'deny',
        Resources: [RESOURCE.toUpperCase(), RESOURCE],
      }),
    ).toEqual({
      name: 'Office',
      ranges: ['10.0.0.0/8'],
      action: 'Deny',
      resources: [RESOURCE],
    });
    expect(parseIpListBody({ ...valid, resources: undefined }).resources).toEqual([]);
    expect(parseIpListBody(valid).name).toBe('Office');
  });

  it('names the culprit of every refusal, judging name, action, ranges and resources in that order', () => {
    expect(refusal({ ...valid, ranges: ['10.0.0.0/8', '10.0.0.300'] })).toBe('ranges[1] "10.0.0.300" is not an IP address or CIDR range.');
    expect(refusal({ ...valid, ranges: '10.0.0.0/8' })).toBe('ranges must be an array of IP addresses or CIDR ranges.');
    expect(refusal({ ...valid, action: 'Allow' })).toBe('action must be "Bypass" or "Deny".');
    expect(refusal({ ...valid, name: '  ' })).toBe('name must be a non-empty string.');
    expect(refusal({ ...valid, resources: ['nope'] })).toBe('resources[0] "nope" is not a resource of this account.');
    expect(refusal({ name: ' ', action: 'Allow', ranges: [], resources: ['nope'] })).toBe('name must be a non-empty string.');
    expect(refusal({ ...valid, action: 'Allow', ranges: [], resources: ['nope'] })).toBe('action must be "Bypass" or "Deny".');
    expect(refusal({ ...valid, ranges: [], resources: ['nope'] })).toBe('ranges must hold at least one range.');
  });

  it('holds at most 1 000 ranges', () => {
    const ranges = (n: number) => Array.from({ length: n }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
    expect(parseIpListBody({ ...valid, ranges: ranges(IP_LIST_MAX_RANGES) }).ranges).toHaveLength(IP_LIST_MAX_RANGES);
    expect(refusal({ ...valid, ranges: ranges(IP_LIST_MAX_RANGES + 1) })).toBe('ranges holds 1001 ranges; a list holds at most 1000.');
  });

  it('is an object', () => {
    expect(refusal(null)).toMatch(/object/);
  });
});
