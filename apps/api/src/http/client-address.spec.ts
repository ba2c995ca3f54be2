import { ConfigError, parseTrustedProxies } from '../config/app-config';
import { addressNetworkOf, ClientAddressResolver } from './client-address';

describe('client address behind trusted proxies', () => {
  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(new ClientAddressResolver([]).resolve('203.0.113.5', '198.51.100.1')).toBe('203.0.113.5');
    expect(new ClientAddressResolver(['10.0.0.0/8']).resolve('::ffff:203.0.113.5', '198.51.100.1')).toBe('203.0.113.5');
  });

  it('walks X-Forwarded-For from the right through trusted proxies only', () => {
    const resolver = new ClientAddressResolver(['10.0.0.0/8', 'fd00::/8', '192.0.2.1']);
    expect(resolver.resolve('10.1.2.3', '198.51.100.1')).toBe('198.51.100.1');
    expect(resolver.resolve('::ffff:10.1.2.3', '6.6.6.6, 198.51.100.1, 192.0.2.1')).toBe('198.51.100.1');
    expect(resolver.resolve('fd00::1', ['198.51.100.9', '10.0.0.2'])).toBe('198.51.100.9');
    // only proxies all the way: the left-most address
    expect(resolver.resolve('10.0.0.1', '10.0.0.2')).toBe('10.0.0.2');
    // garbage stops the walk at the last proxy
    expect(resolver.resolve('10.0.0.1', 'not-an-ip')).toBe('10.0.0.1');
    expect(resolver.resolve('10.0.0.1', undefined)).toBe('10.0.0.1');
  });

  it('validates TRUSTED_PROXIES', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(' 10.0.0.1 , 10.0.0.0/8,::1,fd00::/8 ')).toEqual(['10.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
    for (const bad of ['10.0.0', '10.0.0.0/33', 'fd00::/129', 'proxy.example', '10.0.0.1/8/1', '10.0.0.1,']) {
      expect(() => parseTrustedProxies(bad)).toThrow(ConfigError);
    }
  });
});

describe('addressNetworkOf', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['2001:db8:1:2:3:4:192.0.2.1', '2001:db8:1:2::/64'],
  ])('%s counts as %s', (ip, key) => {
    expect(addressNetworkOf(ip)).toBe(key);
  });
});
