import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { AccessRequestsRepository } from '@twofold/persistence';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { outboxPhoneMessages } from '../../../test/testing/outbox';
import { recordQueries } from '../../../test/testing/query-counter';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

/** SMS codes go to the outbox of a service without a gateway: one file per message. */
const dataDir = join(tmpdir(), `twofold-ra-without-code-${process.pid}-${Date.now()}`);

/**
 * `ra` without a code (the two-step flow's first call) checks and counts nothing: its refusal or code
 * prompt is written by one statement, without row locks or a transaction. A factor's check (an SMS
 * sent, an approval asked) is decided under the locks as before, and a user deleted between the read
 * and the write is decided again under them (no error, never an outage-looking answer).
 */
describe('ra without a code: decided without row locks while it writes one statement', () => {
  let t: TestApp;
  let accountId: AccountId;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  const key = Buffer.from('3132333435363738393031323334353637383930', 'hex');
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ dataDir });
    accountId = (await t.newAccount()).account.id;
    resource = await t.newResource(accountId, 'VPN');
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  async function totpUser(options: { locked?: boolean } = {}) {
    // each test's user starts a minute later: its codes are of a time step no other test spent
    t.clock.advance(60_000);
    const identity = `no-code-${++n}`;
    const user = await newUser(t.db, accountId, identity, { locked: options.locked, now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key, now: t.clock.now() });
    return { identity, user };
  }
  const ra = async (body: Record<string, unknown>) => {
    const res = await t
      .as(resource)
      .post('/access/requests/ra')
      .send({ language: 'en', ...body });
    expect(res.status).toBe(200);
    return res.body as { success: boolean; message: string | null; model: { id: string | null; status: string; replyMessage: string } };
  };
  const requestsOf = (identity: string) =>
    t.database.dataSource.query('SELECT status, user_id FROM access_requests WHERE account_id = $1 AND identity = $2', [
      accountId,
      identity,
    ]);
  const transactional = (statements: string[]) => statements.filter((s) => /START TRANSACTION|FOR UPDATE/.test(s));

  it('a code user is asked for the code by one read and one insert, no transaction; the challenge then grants', async () => {
    const { identity } = await totpUser();
    let answer: Awaited<ReturnType<typeof ra>> | undefined;
    const statements = await recordQueries(async () => {
      answer = await ra({ identity, passCode: null });
    });
    expect(answer?.model).toMatchObject({
      status: 'AwaitingAuthentication',
      replyMessage: 'Enter the code from your authenticator app or token.',
    });
    expect(transactional(statements)).toEqual([]);
    // besides the resource key's first check (then held in memory): the user read, the request written
    const decision = statements.filter((s) => !/api_key = \$1/.test(s));
    expect(decision).toHaveLength(2);
    expect(decision[0]).toMatch(/FROM users u/);
    expect(decision[1]).toMatch(/INSERT INTO access_requests/);
    const granted = await t
      .as(resource)
      .post('/access/requests/ra/challenge')
      .send({ identity, challenge: generateTotp({ secret: key, time: t.clock.now().getTime() }), requestId: answer?.model.id });
    expect(granted.body.model).toMatchObject({ status: 'Granted', authenticator: 'TotpToken' });
  });

  it('a locked user and an unknown identity are refused alike, without a transaction', async () => {
    const { identity } = await totpUser({ locked: true });
    const locked = await recordQueries(async () =>
      expect((await ra({ identity, passCode: '' })).model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: the user is locked.',
      }),
    );
    expect(transactional(locked)).toEqual([]);
    expect(await requestsOf(identity)).toEqual([{ status: 'Denied', user_id: expect.any(String) }]);
    const unknown = await recordQueries(async () =>
      expect(await ra({ identity: 'nobody-at-all' })).toMatchObject({ success: false, message: 'UserNotRegistered' }),
    );
    expect(transactional(unknown)).toEqual([]);
  });

  it('the lockout of an address is read without the lock too: the call is refused as locked out', async () => {
    const { identity } = await totpUser();
    const wrong = generateTotp({ secret: key, time: t.clock.now().getTime() }) === '000000' ? '999999' : '000000';
    for (let i = 0; i < 5; i += 1) await ra({ identity, passCode: wrong, ip: '198.51.100.33' });
    const statements = await recordQueries(async () =>
      expect((await ra({ identity, passCode: null, ip: '198.51.100.33' })).model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: too many wrong codes. Try again in 1 min.',
      }),
    );
    expect(transactional(statements)).toEqual([]);
    // from another address the same user is asked for the code
    expect((await ra({ identity, passCode: null, ip: '203.0.113.33' })).model.status).toBe('AwaitingAuthentication');
  });

  it('a user whose only factor is a phone gets one SMS, sent under the locks; the unlocked read wrote nothing', async () => {
    t.clock.advance(60_000);
    const identity = `phone-only-${++n}`;
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await t.database.dataSource.query(`INSERT INTO phones (account_id, user_id, number, created_at) VALUES ($1, $2, $3, now())`, [
      accountId,
      user.id,
      '+79991234577',
    ]);
    const before = outboxPhoneMessages(t, 'sms').length;
    const statements = await recordQueries(async () =>
      expect((await ra({ identity, passCode: null })).model).toMatchObject({
        status: 'AwaitingAuthentication',
        replyMessage: 'The code was sent by SMS to +7 ••• •• 77. Enter the code.',
      }),
    );
    expect(statements.filter((s) => s === 'START TRANSACTION')).toHaveLength(1);
    expect(statements.some((s) => /FOR UPDATE/.test(s))).toBe(true);
    expect(outboxPhoneMessages(t, 'sms')).toHaveLength(before + 1);
    expect(await requestsOf(identity)).toEqual([{ status: 'AwaitingAuthentication', user_id: user.id }]);
  });

  it('a user deleted between the read and the insert: decided again under the locks, UserNotRegistered, one request', async () => {
    const { identity, user } = await totpUser();
    const insertDecided = AccessRequestsRepository.prototype.insertDecided;
    const spy = jest.spyOn(AccessRequestsRepository.prototype, 'insertDecided').mockImplementationOnce(async function (
      this: AccessRequestsRepository,
      ...args: Parameters<AccessRequestsRepository['insertDecided']>
    ) {
      // bounded: a user row lock held by this call would otherwise make the delete wait for ever
      const other = t.database.dataSource.createQueryRunner();
      try {
        await other.startTransaction();
        await other.query(`SET LOCAL lock_timeout = '2s'`);
        await other.query('DELETE FROM users WHERE id = $1', [user.id]);
        await other.commitTransaction();
      } finally {
        await other.release();
      }
      return insertDecided.apply(this, args);
    });
    expect(await ra({ identity, passCode: null })).toMatchObject({
      success: false,
      message: 'UserNotRegistered',
      model: { status: 'Denied', replyMessage: 'Access denied: the user is not registered.' },
    });
    expect(spy).toHaveBeenCalledTimes(2);
    expect(await requestsOf(identity)).toEqual([{ status: 'Denied', user_id: null }]);
  });
});
