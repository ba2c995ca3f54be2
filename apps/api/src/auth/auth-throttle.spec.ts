import { ManualClock } from '@twofold/domain';
import { AuthFailuresRepository, Db } from '@twofold/persistence';
import { createTestDatabase, TestDatabase } from '@twofold/persistence/testing';
import { AuthThrottle } from './auth-throttle';

describe('AuthThrottle, counted in PostgreSQL', () => {
  let database: TestDatabase;
  let failures: AuthFailuresRepository;
  let clock: ManualClock;
  beforeAll(async () => {
    database = await createTestDatabase();
    failures = new AuthFailuresRepository(new Db(database.dataSource));
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    await database.dataSource.query('DELETE FROM auth_failures');
  });

  it('answers 401 to 20 failures per minute per client, 429 to the 21st, then blocks the client to the end of the minute', async () => {
    const throttle = new AuthThrottle(clock, failures);
    for (let i = 0; i < 20; i += 1) expect(await throttle.recordFailure('1.1.1.1', 'k')).toBe(0);
    expect(throttle.retryAfterSeconds('1.1.1.1')).toBe(0);
    clock.advance(20_000);
    expect(await throttle.recordFailure('1.1.1.1', 'k')).toBe(40);
    expect(throttle.retryAfterSeconds('1.1.1.1')).toBe(40);
    expect(throttle.retryAfterSeconds('2.2.2.2')).toBe(0);
    clock.advance(39_500);
    expect(throttle.retryAfterSeconds('1.1.1.1')).toBe(1);
    clock.advance(500);
    expect(throttle.retryAfterSeconds('1.1.1.1')).toBe(0);
    expect(await throttle.recordFailure('1.1.1.1', 'k')).toBe(0);
  });

  it('counts the failures of two instances together: the 21st is refused whichever instance sees it', async () => {
    const first = new AuthThrottle(clock, failures);
    const second = new AuthThrottle(clock, failures);
    for (let i = 0; i < 10; i += 1) expect(await first.recordFailure('3.3.3.3', undefined)).toBe(0);
    for (let i = 0; i < 10; i += 1) expect(await second.recordFailure('3.3.3.3', undefined)).toBe(0);
    expect(await second.recordFailure('3.3.3.3', undefined)).toBe(60);
    expect(second.retryAfterSeconds('3.3.3.3')).toBe(60);
    // the first instance learns the block at the client's next failure there
    expect(first.retryAfterSeconds('3.3.3.3')).toBe(0);
    expect(await first.recordFailure('3.3.3.3', undefined)).toBe(60);
    expect(first.retryAfterSeconds('3.3.3.3')).toBe(60);
  });

  it("refuses an API key's 21st failure from any address, without blocking the addresses", async () => {
    const throttle = new AuthThrottle(clock, failures);
    for (let i = 1; i <= 20; i += 1) expect(await throttle.recordFailure(`10.0.0.${i}`, 'guessed-key')).toBe(0);
    expect(await throttle.recordFailure('10.0.0.99', 'guessed-key')).toBe(60);
    expect(throttle.retryAfterSeconds('10.0.0.99')).toBe(0);
    expect(await throttle.recordFailure('10.0.0.99', 'another-key')).toBe(0);
  });

  it('counts the addresses of one IPv6 /64 together, and other networks apart', async () => {
    const throttle = new AuthThrottle(clock, failures);
    for (let i = 1; i <= 20; i += 1) expect(await throttle.recordFailure(`2001:db8:1:2::${i.toString(16)}`, undefined)).toBe(0);
    expect(await throttle.recordFailure('2001:db8:1:2:ffff:ffff:ffff:ffff', undefined)).toBe(60);
    expect(throttle.retryAfterSeconds('2001:db8:1:2::abcd')).toBe(60);
    expect(throttle.retryAfterSeconds('2001:db8:1:3::1')).toBe(0);
  });
});
