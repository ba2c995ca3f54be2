import { ManualClock } from '@twofold/domain';
import { AuthThrottle, throttleKeyOf } from './auth-throttle';

describe('AuthThrottle', () => {
  it('allows 20 failures per minute per IP and then asks to wait for the rest of the minute', () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const throttle = new AuthThrottle(clock);
    for (let i = 0; i < 19; i += 1) throttle.recordFailure('1.1.1.1');
    expect(throttle.retryAfterSeconds('1.1.1.1')).toBe(0);
    throttle.recordFailure('1.1.1.1');
    expect(throttle.retryAfterSeconds('1.1.1.1')).toBe(60);
    expect(throttle.retryAfterSeconds('2.2.2.2')).toBe(0);
    clock.advance(59_500);
    expect(throttle.retryAfterSeconds('1.1.1.1')).toBe(1);
    clock.advance(500);
    expect(throttle.retryAfterSeconds('1.1.1.1')).toBe(0);
  });

  it('counts the addresses of one IPv6 /64 together, and other networks apart (issue 13, finding 8)', () => {
    const throttle = new AuthThrottle(new ManualClock(new Date('2026-01-01T00:00:00Z')));
    for (let i = 1; i <= 20; i += 1) throttle.recordFailure(`2001:db8:1:2::${i.toString(16)}`);
    expect(throttle.retryAfterSeconds('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(60);
    expect(throttle.retryAfterSeconds('2001:db8:1:3::1')).toBe(0);
  });
});

describe('throttleKeyOf', () => {
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
    expect(throttleKeyOf(ip)).toBe(key);
  });
});
