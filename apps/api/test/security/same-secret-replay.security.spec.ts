import { AccountId } from '@twofold/domain';
import { generateHotp, generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * A code is accepted once per secret, not once per row: a user holding two authenticators with the
 * same key (the same HOTP key registered twice, a TOTP token copied away and moved back, an app and a
 * token of one key) must not get each code accepted once through each of them.
 */
describe('replay state belongs to the secret', () => {
  let t: TestApp;
  let accountId: AccountId;
  let vpn: Awaited<ReturnType<TestApp['newResource']>>;
  const key = Buffer.from('3132333435363738393031323334353637383930', 'hex');

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    vpn = await t.newResource(accountId, 'VPN');
  });
  afterAll(() => t.close());

  const ra = async (identity: string, passCode: string) => {
    const res = await t.as(vpn).post('/access/requests/ra').send({ identity, passCode, language: 'en' });
    expect(res.status).toBe(200);
    return res.body.model as { status: string; replyMessage: string; authenticatorId: string | null };
  };
  const counters = (userId: string) =>
    t.database.dataSource.query(`SELECT hotp_counter, last_time_step FROM authenticators WHERE user_id = $1 ORDER BY created_at`, [userId]);

  it('the same HOTP key registered twice: a code is accepted once, and spent on both rows', async () => {
    const user = await newUser(t.db, accountId, 'hank', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'HotpToken', key, name: 'Fob', now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'HotpToken', key, name: 'Fob again', now: t.clock.now() });
    const code = generateHotp({ secret: key, counter: 0 });

    expect(await ra('hank', code)).toMatchObject({ status: 'Granted' });
    expect(await ra('hank', code)).toMatchObject({
      status: 'Denied',
      replyMessage: 'Access denied: this code has already been used. Wait for the next code.',
    });
    expect(await counters(user.id)).toEqual([
      { hotp_counter: '1', last_time_step: null },
      { hotp_counter: '1', last_time_step: null },
    ]);
    // the next counter works, once
    const next = generateHotp({ secret: key, counter: 1 });
    expect(await ra('hank', next)).toMatchObject({ status: 'Granted' });
    expect(await ra('hank', next)).toMatchObject({ status: 'Denied' });
  });

  it('a TOTP app and a TOTP token of one key: one code, one sign-in', async () => {
    t.clock.advance(60_000);
    const user = await newUser(t.db, accountId, 'tina', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'Totp', key, now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key, now: t.clock.now() });
    const code = generateTotp({ secret: key, time: t.clock.now().getTime() });

    expect(await ra('tina', code)).toMatchObject({ status: 'Granted' });
    expect(await ra('tina', code)).toMatchObject({
      status: 'Denied',
      replyMessage: 'Access denied: this code has already been used. Wait for the next code.',
    });
    const [app, token] = await counters(user.id);
    expect(app.last_time_step).not.toBeNull();
    expect(token.last_time_step).toBe(app.last_time_step);
  });

  it('rows that drifted apart answer by the furthest state: a counter spent on one is spent for the other', async () => {
    const user = await newUser(t.db, accountId, 'dora', { now: t.clock.now() });
    const first = await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'HotpToken', key, now: t.clock.now() });
    t.clock.advance(1000);
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'HotpToken', key, now: t.clock.now() });
    // as before the fix: the first row alone had accepted counters 0..2
    await t.database.dataSource.query(`UPDATE authenticators SET hotp_counter = 3 WHERE id = $1`, [first.id]);
    expect(await ra('dora', generateHotp({ secret: key, counter: 2 }))).toMatchObject({ status: 'Denied' });
    expect(await ra('dora', generateHotp({ secret: key, counter: 3 }))).toMatchObject({ status: 'Granted', authenticatorId: first.id });
  });

  it('different keys of one user stay independent', async () => {
    const other = Buffer.from('00112233445566778899aabbccddeeff00112233', 'hex');
    const user = await newUser(t.db, accountId, 'otto', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'HotpToken', key, now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'HotpToken', key: other, now: t.clock.now() });
    expect(await ra('otto', generateHotp({ secret: key, counter: 0 }))).toMatchObject({ status: 'Granted' });
    expect(await ra('otto', generateHotp({ secret: other, counter: 0 }))).toMatchObject({ status: 'Granted' });
    expect(await counters(user.id)).toEqual([
      { hotp_counter: '1', last_time_step: null },
      { hotp_counter: '1', last_time_step: null },
    ]);
  });
});
