import { AccountId } from '@twofold/domain';
import { generateHotp, generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

describe('the ra family: ra, md, ra/challenge', () => {
  let t: TestApp;
  let accountId: AccountId;
  let accountAuth: string;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  const totpKey = Buffer.from('3132333435363738393031323334353637383930', 'hex');
  const hotpKey = Buffer.from('0102030405060708090a0b0c0d0e0f1011121314', 'hex');

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    resource = await t.newResource(accountId, 'VPN');
  });
  afterAll(() => t.close());

  async function userWith(identity: string, kind: 'TotpToken' | 'HotpToken' | null, options: { locked?: boolean } = {}) {
    const user = await newUser(t.db, accountId, identity, { locked: options.locked, now: t.clock.now() });
    if (kind)
      await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, {
        kind,
        key: kind === 'TotpToken' ? totpKey : hotpKey,
        now: t.clock.now(),
      });
    return user;
  }
  const totpNow = () => generateTotp({ secret: totpKey, time: t.clock.now().getTime() });
  const ra = (body: unknown, authorization = resource.authorization) =>
    t
      .as(authorization)
      .post('/access/requests/ra')
      .send(body as object);

  describe('POST /access/requests/ra', () => {
    it('grants a valid TOTP code once; the replay of the same step is Denied', async () => {
      const user = await userWith('eve', 'TotpToken');
      const code = totpNow();
      const granted = await ra({ Identity: 'EVE', PassCode: code, Language: 'en' });
      expect(granted.status).toBe(200);
      expect(granted.body).toEqual({
        model: {
          id: expect.any(String),
          identity: 'eve',
          status: 'Granted',
          authenticator: 'TotpToken',
          authenticatorId: expect.any(String),
          account: 'Token',
          phone: null,
          bypassed: false,
          countryCode: null,
          region: null,
          city: null,
          replyMessage: 'Access granted.',
        },
        success: true,
        message: null,
      });
      const [after] = await t.database.dataSource.query('SELECT last_login FROM users WHERE id = $1', [user.id]);
      expect(after.last_login.toISOString()).toBe(t.clock.now().toISOString());
      const replay = await ra({ identity: 'eve', passCode: code, language: 'en' });
      expect(replay.status).toBe(200);
      expect(replay.body.model).toMatchObject({
        status: 'Denied',
        authenticator: null,
        replyMessage: 'Access denied: this code has already been used. Wait for the next code.',
      });
      const polled = await t.as(resource).get(`/access/requests/${granted.body.model.id}`);
      expect(polled.body.model).toMatchObject({
        status: 'Granted',
        authenticator: 'TotpToken',
        grantedAt: t.clock.now().toISOString(),
        resourceName: 'VPN',
      });
    });

    it('moves the HOTP counter past the accepted code', async () => {
      await userWith('fay', 'HotpToken');
      const ahead = generateHotp({ secret: hotpKey, counter: 5 });
      expect((await ra({ identity: 'fay', passCode: ahead })).body.model).toMatchObject({ status: 'Granted', authenticator: 'HotpToken' });
      expect((await ra({ identity: 'fay', passCode: ahead })).body.model.status).toBe('Denied');
      expect((await ra({ identity: 'fay', passCode: generateHotp({ secret: hotpKey, counter: 2 }) })).body.model.status).toBe('Denied');
      expect((await ra({ identity: 'fay', passCode: generateHotp({ secret: hotpKey, counter: 6 }) })).body.model.status).toBe('Granted');
      const [row] = await t.database.dataSource.query(
        `SELECT a.hotp_counter FROM authenticators a JOIN users u ON u.id = a.user_id WHERE u.identity = 'fay'`,
      );
      expect(Number(row.hotp_counter)).toBe(7);
    });

    it('denies a wrong code, a locked user, an unknown user and a user without an OTP authenticator', async () => {
      await userWith('gus', 'TotpToken');
      await userWith('hal', 'TotpToken', { locked: true });
      await userWith('ida', null);
      const wrong = totpNow() === '000000' ? '111111' : '000000';
      const en = { language: 'en' };
      expect((await ra({ identity: 'gus', passCode: wrong, ...en })).body.model.replyMessage).toBe('Access denied: wrong code.');
      expect((await ra({ identity: 'hal', passCode: totpNow(), ...en })).body.model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: the user is locked.',
      });
      const unknown = await ra({ identity: 'nobody', passCode: totpNow(), ...en });
      expect(unknown.body).toMatchObject({
        success: false,
        message: 'UserNotRegistered',
        model: { status: 'Denied', replyMessage: 'Access denied: the user is not registered.' },
      });
      expect((await ra({ identity: 'ida', passCode: totpNow(), ...en })).body.model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: set up a second factor first.',
      });
      expect((await ra({ identity: 'gus', passCode: 'abc' })).body.model.status).toBe('Denied');
      const [users] = await t.database.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE identity = 'nobody'`);
      expect(users.n).toBe(0);
    });

    it('stops checking a user’s codes from one address after 5 wrong ones, for a minute (code-lockouts.spec.ts has the rest)', async () => {
      await userWith('ken', 'TotpToken');
      const wrong = () => (totpNow() === '000000' ? '111111' : '000000');
      for (let i = 0; i < 5; i += 1)
        expect((await ra({ identity: 'ken', passCode: wrong(), language: 'en', ip: '192.0.2.33' })).body.model.replyMessage).toBe(
          'Access denied: wrong code.',
        );
      const refused = await ra({ identity: 'ken', passCode: totpNow(), language: 'en', ip: '192.0.2.33' });
      expect(refused.body.model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: too many wrong codes. Try again in 1 min.',
      });
      t.clock.advance(60_000);
      expect((await ra({ identity: 'ken', passCode: totpNow(), ip: '192.0.2.33' })).body.model.status).toBe('Granted');
    });

    it('answers unusable input with 200 and a Denied model, wrong credentials with 401', async () => {
      const refusals: [object, string][] = [
        [{ passCode: '123456' }, 'Identity must not be empty.'],
        [{ identity: 'gus', passCode: 123456 }, 'PassCode must be a string.'],
        [{ identity: ['gus'], passCode: '123456' }, 'Identity must not be empty.'],
      ];
      for (const [body, message] of refusals) {
        const res = await ra(body);
        expect({ body, status: res.status }).toEqual({ body, status: 200 });
        expect(res.body).toMatchObject({
          success: false,
          message,
          model: { id: null, status: 'Denied', bypassed: false },
        });
      }
      expect((await ra({ identity: 'gus', passCode: '123456' }, accountAuth)).status).toBe(401);
    });

    it('10 concurrent submissions of one valid code: exactly one is Granted', async () => {
      await userWith('jan', 'TotpToken');
      t.clock.advance(30_000);
      const code = totpNow();
      const results = await Promise.all(Array.from({ length: 10 }, () => ra({ identity: 'jan', passCode: code })));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(results.filter((r) => r.body.model.status === 'Granted')).toHaveLength(1);
      expect(results.filter((r) => r.body.model.status === 'Denied')).toHaveLength(9);
    });
  });

  describe('POST /access/requests/ra/challenge', () => {
    const challenge = (body: unknown) =>
      t
        .as(resource)
        .post('/access/requests/ra/challenge')
        .send(body as object);
    const rowOf = async (id: string) =>
      (await t.database.dataSource.query('SELECT status, failed_attempts FROM access_requests WHERE id = $1', [id]))[0];
    const NOT_REGISTERED = {
      success: false,
      message: 'UserNotRegistered',
      model: {
        id: null,
        identity: 'stranger',
        status: 'Denied',
        replyMessage: 'Access denied: the user is not registered.',
        bypassed: false,
      },
    };

    it('an identity the account does not know is UserNotRegistered, as on ra, whatever request it names; nothing is recorded', async () => {
      const before = (await t.database.dataSource.query('SELECT count(*)::int AS n FROM access_requests'))[0].n;
      for (const requestId of [undefined, 'not-a-state', '6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e']) {
        const res = await challenge({ identity: 'stranger', challenge: totpNow(), requestId, language: 'en' });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject(NOT_REGISTERED);
      }
      expect((await t.database.dataSource.query('SELECT count(*)::int AS n FROM access_requests'))[0].n).toBe(before);
      const [users] = await t.database.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE identity = 'stranger'`);
      expect(users.n).toBe(0);
    });

    it("naming another user's request: an unknown identity is UserNotRegistered, a known one keeps its answer; the request is left unchanged", async () => {
      await userWith('owner', 'TotpToken');
      await userWith('neighbour', 'TotpToken');
      const started = (await ra({ identity: 'owner', passCode: null })).body.model;
      expect(started.status).toBe('AwaitingAuthentication');

      const stranger = await challenge({ identity: 'stranger', challenge: totpNow(), requestId: started.id, language: 'en' });
      expect(stranger.body).toMatchObject(NOT_REGISTERED);
      const neighbour = await challenge({ identity: 'neighbour', challenge: totpNow(), requestId: started.id, language: 'en' });
      expect(neighbour.body).toMatchObject({
        success: false,
        message: 'Access denied: this sign-in request is no longer valid. Sign in again.',
        model: { id: null, identity: 'neighbour', status: 'Denied' },
      });
      expect(await rowOf(started.id)).toEqual({ status: 'AwaitingAuthentication', failed_attempts: 0 });
      const owner = await challenge({ identity: 'owner', challenge: totpNow(), requestId: started.id });
      expect(owner.body.model).toMatchObject({ id: started.id, status: 'Granted' });
    });
  });
});
