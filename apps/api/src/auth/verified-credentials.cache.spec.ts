import { asAccountId, ManualClock } from '@twofold/domain';
import { AccountPrincipal, ResourcePrincipal } from './principal';
import { VERIFIED_CREDENTIALS_MAX_ENTRIES, VERIFIED_CREDENTIALS_TTL_MS, VerifiedCredentialsCache } from './verified-credentials.cache';

describe('VerifiedCredentialsCache', () => {
  const account: AccountPrincipal = {
    kind: 'account',
    accountId: asAccountId('00000000-0000-4000-8000-000000000001'),
    login: 'acc-key',
    identityFormat: 'AsIs',
  };
  const resource: ResourcePrincipal = {
    kind: 'resource',
    accountId: account.accountId,
    resourceId: '00000000-0000-4000-8000-000000000002',
    login: 'res-key',
    identityFormat: 'AsIs',
  };
  const otherResource: ResourcePrincipal = {
    ...resource,
    accountId: asAccountId('00000000-0000-4000-8000-000000000003'),
    resourceId: '00000000-0000-4000-8000-000000000004',
    login: 'other-key',
  };
  let clock: ManualClock;
  let cache: VerifiedCredentialsCache;

  beforeEach(() => {
    clock = new ManualClock(new Date('2026-05-20T10:00:00Z'));
    cache = new VerifiedCredentialsCache(clock);
    cache.setListening(true);
  });

  it('answers a pair verified before, and only with the same secret', () => {
    cache.remember('acc-key', 's3cret', account, cache.generation());
    expect(cache.get('account', 'acc-key', 's3cret')).toEqual(account);
    expect(cache.get('account', 'acc-key', 'S3CRET')).toBeNull();
    expect(cache.get('resource', 'acc-key', 's3cret')).toBeNull();
  });

  it('trusts nothing and stores nothing while changes cannot be heard', () => {
    cache.remember('acc-key', 's3cret', account, cache.generation());
    cache.setListening(false);
    expect(cache.get('account', 'acc-key', 's3cret')).toBeNull();
    cache.remember('acc-key', 's3cret', account, cache.generation());
    expect(cache.size()).toBe(0);
  });

  it('does not store a lookup that raced an announced change', () => {
    const before = cache.generation();
    cache.forget({ kind: 'resource', id: '00000000-0000-4000-8000-00000000ffff' });
    cache.remember('acc-key', 's3cret', account, before);
    expect(cache.get('account', 'acc-key', 's3cret')).toBeNull();
  });

  it("forgets the owner's pairs on its change, others stay; an account's change drops its resources' pairs too", () => {
    cache.remember('acc-key', 'a', account, cache.generation());
    cache.remember('res-key', 'r', resource, cache.generation());
    cache.remember('other-key', 'o', otherResource, cache.generation());
    cache.forget({ kind: 'resource', id: resource.resourceId });
    expect(cache.get('resource', 'res-key', 'r')).toBeNull();
    expect(cache.get('account', 'acc-key', 'a')).toEqual(account);
    cache.remember('res-key', 'r', resource, cache.generation());
    // the account's settings (its identity format) travel in its resources' principals
    cache.forget({ kind: 'account', id: account.accountId });
    expect(cache.get('account', 'acc-key', 'a')).toBeNull();
    expect(cache.get('resource', 'res-key', 'r')).toBeNull();
    expect(cache.get('resource', 'other-key', 'o')).toEqual(otherResource);
    cache.remember('res-key', 'r', resource, cache.generation());
    cache.forgetAll();
    expect(cache.size()).toBe(0);
  });

  it('trusts a pair at most VERIFIED_CREDENTIALS_TTL_MS', () => {
    cache.remember('acc-key', 's3cret', account, cache.generation());
    clock.advance(VERIFIED_CREDENTIALS_TTL_MS - 1);
    expect(cache.get('account', 'acc-key', 's3cret')).toEqual(account);
    clock.advance(1);
    expect(cache.get('account', 'acc-key', 's3cret')).toBeNull();
  });

  it('keeps at most VERIFIED_CREDENTIALS_MAX_ENTRIES pairs, forgetting the oldest', () => {
    for (let i = 0; i <= VERIFIED_CREDENTIALS_MAX_ENTRIES; i += 1)
      cache.remember(`key-${i}`, 's', { ...account, login: `key-${i}` }, cache.generation());
    expect(cache.size()).toBe(VERIFIED_CREDENTIALS_MAX_ENTRIES);
    expect(cache.get('account', 'key-0', 's')).toBeNull();
    expect(cache.get('account', `key-${VERIFIED_CREDENTIALS_MAX_ENTRIES}`, 's')).not.toBeNull();
  });
});
