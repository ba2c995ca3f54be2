import { ManualClock } from '@twofold/domain';
import { AuthThrottle } from './auth-throttle';

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
});
