import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { outboxPhoneMessages } from '../../../test/testing/outbox';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

/** The codes SMS and calls carry, read from the outbox a service without a gateway writes them to. */
const dataDir = join(tmpdir(), `twofold-phone-codes-${process.pid}-${Date.now()}`);
const lastCode = (t: TestApp, box: 'sms' | 'calls' = 'sms') => /(\d{6})/.exec(outboxPhoneMessages(t, box).at(-1)?.text ?? '')?.[1] ?? '';

describe('codes by SMS and call on the ra family (no gateway: the outbox)', () => {
  let t: TestApp;
  let accountId: AccountId;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  const totpKey = Buffer.from('3132333435363738393031323334353637383930', 'hex');
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ dataDir });
    accountId = (await t.newAccount()).account.id;
    resource = await t.newResource(accountId, 'VPN');
  });
  afterAll(() => t.close());

  /** A user with a phone, and a TOTP token when `totp`; each test its own user (the per-user cooldown). */
  async function userWithPhone(options: { totp?: boolean; phone?: string } = {}) {
    const identity = `phone-user-${++n}`;
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await t.database.dataSource.query(`INSERT INTO phones (account_id, user_id, number, created_at) VALUES ($1, $2, $3, now())`, [
      accountId,
      user.id,
      options.phone ?? '+79991234512',
    ]);
    if (options.totp)
      await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: totpKey, now: t.clock.now() });
    return { identity, user };
  }
  const ra = (body: object) => t.as(resource).post('/access/requests/ra').send(body);
  const challenge = (body: object) => t.as(resource).post('/access/requests/ra/challenge').send(body);

  it('`s` sends a 6-digit code by SMS and asks for it; the code grants once, on that request', async () => {
    const { identity } = await userWithPhone();
    const sent = await ra({ identity, passCode: 's', language: 'en' });
    expect(sent.body).toMatchObject({
      success: true,
      model: { status: 'AwaitingAuthentication', replyMessage: 'The code was sent by SMS to +7 ••• •• 12. Enter the code.' },
    });
    expect(outboxPhoneMessages(t, 'sms').at(-1)).toMatchObject({ to: '+79991234512' });
    const code = lastCode(t);
    expect(code).toMatch(/^\d{6}$/);
    // never the code in the answer
    expect(JSON.stringify(sent.body)).not.toContain(code);
    const [stored] = await t.database.dataSource.query(`SELECT code_hash FROM phone_codes WHERE access_request_id = $1`, [
      sent.body.model.id,
    ]);
    expect(stored.code_hash.toString('hex')).not.toContain(Buffer.from(code).toString('hex'));

    const granted = await challenge({ identity, challenge: code, requestId: sent.body.model.id });
    expect(granted.body.model).toMatchObject({ status: 'Granted', authenticator: 'Sms', account: 'SMS', replyMessage: 'Access granted.' });
    // single use: the request is decided, and the code is spent
    const again = await challenge({ identity, challenge: code, requestId: sent.body.model.id });
    expect(again.body.model.status).toBe('Denied');
  });

  it("a wrong code spends one of the request's five attempts; the fifth denies it", async () => {
    const { identity } = await userWithPhone();
    const sent = await ra({ identity, passCode: 's', language: 'en' });
    const id = sent.body.model.id;
    const code = lastCode(t);
    const wrong = code === '000000' ? '000001' : '000000';
    const first = await challenge({ identity, challenge: wrong, requestId: id });
    expect(first.body.model).toMatchObject({
      status: 'AwaitingAuthentication',
      replyMessage: 'Wrong code. Enter the code again (4 of 5 attempts left).',
    });
    for (let i = 0; i < 4; i++) await challenge({ identity, challenge: wrong, requestId: id });
    const late = await challenge({ identity, challenge: code, requestId: id });
    expect(late.body.model.status).toBe('Denied');
  });

  it('a code is open for five minutes (the injected clock)', async () => {
    const { identity } = await userWithPhone();
    const sent = await ra({ identity, passCode: 's', language: 'en' });
    const code = lastCode(t);
    t.clock.advance(5 * 60_000 + 1);
    const late = await challenge({ identity, challenge: code, requestId: sent.body.model.id });
    expect(late.body.model).toMatchObject({
      status: 'AwaitingAuthentication',
      replyMessage: 'Wrong code. Enter the code again (4 of 5 attempts left).',
    });
  });

  it('a code is bound to its request: it grants no other request of the user', async () => {
    const { identity } = await userWithPhone({ totp: true });
    const first = await ra({ identity, passCode: 's', language: 'en' });
    const code = lastCode(t);
    const other = await ra({ identity, language: 'en' });
    expect(other.body.model.status).toBe('AwaitingAuthentication');
    const wrongRequest = await challenge({ identity, challenge: code, requestId: other.body.model.id });
    expect(wrongRequest.body.model.status).toBe('AwaitingAuthentication');
    const right = await challenge({ identity, challenge: code, requestId: first.body.model.id });
    expect(right.body.model.status).toBe('Granted');
  });

  it("`c` has the code read by a call; a user with a token may still enter the token's code", async () => {
    const { identity } = await userWithPhone({ totp: true });
    const sent = await ra({ identity, passCode: 'c', language: 'ru' });
    expect(sent.body.model).toMatchObject({
      status: 'AwaitingAuthentication',
      replyMessage: 'Вам позвонят на +7 ••• •• 12 и продиктуют код. Введите код.',
    });
    expect(outboxPhoneMessages(t, 'calls').at(-1)?.text).toMatch(/\d \d \d \d \d \d/);
    const totp = generateTotp({ secret: totpKey, time: t.clock.now().getTime() });
    const granted = await challenge({ identity, challenge: totp, requestId: sent.body.model.id });
    expect(granted.body.model).toMatchObject({ status: 'Granted', authenticator: 'TotpToken' });
  });

  it('a user whose only factor is a phone gets an SMS for ra without a code', async () => {
    const { identity } = await userWithPhone();
    const sent = await ra({ identity, passCode: null, language: 'en' });
    expect(sent.body.model).toMatchObject({
      status: 'AwaitingAuthentication',
      replyMessage: 'The code was sent by SMS to +7 ••• •• 12. Enter the code.',
    });
  });

  it('md cannot ask for the code: `s` is Denied, telling to append the code to the password; la falls back to an approval it cannot find', async () => {
    const { identity } = await userWithPhone({ totp: true });
    const before = outboxPhoneMessages(t, 'sms').length;
    const md = await t.as(resource).post('/access/requests/md').send({ identity, passCode: 's', language: 'en' });
    expect(md.body.model).toMatchObject({
      status: 'Denied',
      replyMessage: 'Access denied: SMS is not available. Append the code from your authenticator app or token to your password.',
    });
    const la = await t.as(resource).post('/access/requests/la').send({ identity, language: 'en' });
    expect(la.body.model).toMatchObject({
      status: 'Denied',
      replyMessage: 'Access denied: no confirmation method is set up. Set up Telegram or the mobile app first.',
    });
    expect(outboxPhoneMessages(t, 'sms').length).toBe(before);
  });

  it('`s` for a user without a phone falls back to the code prompt', async () => {
    const user = await newUser(t.db, accountId, `no-phone-${++n}`, { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: totpKey, now: t.clock.now() });
    const sent = await ra({ identity: user.identity, passCode: 's', language: 'en' });
    expect(sent.body.model).toMatchObject({
      status: 'AwaitingAuthentication',
      replyMessage: 'SMS is not available. Enter the code from your authenticator app or token.',
    });
  });
});
