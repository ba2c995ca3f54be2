import { AccountId, parseHttpGatewaySettings } from '@twofold/domain';
import { newUser } from '@twofold/persistence/testing';
import { FAKE_GATEWAY_SECRET_BODY, FakePhoneGateway } from '../../test/testing/fake-phone-gateway';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/**
 * Codes through HTTP template gateways: the service-wide one (SMS_GATEWAY) and the account's own
 * (`PUT /settings/sms-gateway`, `/settings/call-gateway`), against a loopback fake provider; what a
 * gateway that is down, slow, failing or answering garbage does; and the abuse limits.
 */
describe('SMS and call gateways', () => {
  let t: TestApp;
  let fake: FakePhoneGateway;
  let accountId: AccountId;
  let accountAuth: string;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  let n = 0;

  beforeAll(async () => {
    fake = await FakePhoneGateway.start();
    const serviceGateway = parseHttpGatewaySettings({
      url: `${fake.url}/service/send?to={phone}`,
      method: 'POST',
      bodyFormat: 'json',
      body: { to: '{phone}', message: '{text}' },
      basicAuth: { username: 'twofold', password: 'service-gateway-password' },
      successContains: '"status":"queued"',
      timeoutMs: 300,
    });
    // the fake provider listens on loopback: this service lets accounts' gateways reach it
    t = await startTestApp({ phoneGateways: { sms: serviceGateway }, phoneGatewaysAllowPrivate: true });
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    resource = await t.newResource(accountId, 'VPN');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.mode = 'ok';
  });

  async function userWithPhone(phone = '+79991234512') {
    const identity = `gw-user-${++n}`;
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await t.database.dataSource.query(`INSERT INTO phones (account_id, user_id, number, created_at) VALUES ($1, $2, $3, now())`, [
      accountId,
      user.id,
      phone,
    ]);
    return { identity, userId: user.id };
  }
  const ra = (body: object) =>
    t
      .as(resource)
      .post('/access/requests/ra')
      .send({ language: 'en', ...body });
  const challenge = (body: object) => t.as(resource).post('/access/requests/ra/challenge').send(body);
  const codeSent = () => /(\d{6})/.exec(fake.lastFields()['message'] ?? fake.lastFields()['text'] ?? '')?.[1] ?? '';
  const codeRows = async (userId: string) =>
    Number((await t.database.dataSource.query(`SELECT count(*) AS n FROM phone_codes WHERE user_id = $1`, [userId]))[0].n);

  it('the service-wide gateway gets the number and the text, with Basic auth; the code it carried grants', async () => {
    const { identity } = await userWithPhone();
    const sent = await ra({ identity, passCode: 's' });
    expect(sent.body.model).toMatchObject({ status: 'AwaitingAuthentication' });
    const request = fake.requests.at(-1);
    expect(request).toMatchObject({ method: 'POST', url: '/service/send?to=%2B79991234512' });
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('twofold:service-gateway-password').toString('base64')}`);
    expect(fake.lastFields()).toEqual({ to: '+79991234512', message: expect.stringMatching(/\d{6}/) });
    const granted = await challenge({ identity, challenge: codeSent(), requestId: sent.body.model.id });
    expect(granted.body.model.status).toBe('Granted');
  });

  it.each(['fail', 'slow', 'garbage'] as const)(
    'a gateway in %s mode: Denied at once, nothing stored or charged, its answer not shown',
    async (mode) => {
      const { identity, userId } = await userWithPhone();
      fake.mode = mode;
      const denied = await ra({ identity, passCode: 's' });
      expect(denied.status).toBe(200);
      expect(denied.body).toMatchObject({
        success: false,
        message: 'Access denied: could not send the code by SMS. Try again later.',
        model: { status: 'Denied', replyMessage: 'Access denied: could not send the code by SMS. Try again later.' },
      });
      expect(JSON.stringify(denied.body)).not.toContain(FAKE_GATEWAY_SECRET_BODY);
      expect(await codeRows(userId)).toBe(0);
      // nothing was charged: no cooldown stops the next code once the gateway is back
      fake.mode = 'ok';
      expect((await ra({ identity, passCode: 's' })).body.model.status).toBe('AwaitingAuthentication');
    },
  );

  it("the account's own gateway replaces the service's: stored encrypted, journaled, never shown with its secrets", async () => {
    const put = await t
      .as(accountAuth)
      .put('/settings/sms-gateway')
      .send({
        url: `${fake.url}/account/sms?key={code}`,
        method: 'POST',
        bodyFormat: 'form',
        body: { phone: '{phone}', text: '{text}' },
        headers: { 'X-Api-Key': 'account-header-secret' },
        basicAuth: { username: 'acme', password: 'account-gateway-password' },
        successContains: 'queued',
      });
    expect(put.status).toBe(200);
    expect(put.body.model).toEqual({
      method: 'sms',
      source: 'account',
      url: `${fake.url}/account/sms`,
      httpMethod: 'POST',
      bodyFormat: 'form',
      basicAuth: true,
      headers: ['X-Api-Key'],
    });
    const shown = JSON.stringify((await t.as(accountAuth).get('/settings/sms-gateway')).body);
    for (const secret of ['account-gateway-password', 'account-header-secret']) expect(shown).not.toContain(secret);
    const [row] = await t.database.dataSource.query(`SELECT settings_enc FROM phone_gateways WHERE account_id = $1`, [accountId]);
    expect(row.settings_enc.toString('latin1')).not.toContain('account-gateway-password');

    const { identity } = await userWithPhone();
    const sent = await ra({ identity, passCode: 's' });
    expect(sent.body.model.status).toBe('AwaitingAuthentication');
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', url: expect.stringMatching(/^\/account\/sms\?key=\d{6}$/) });
    expect(fake.requests.at(-1)?.headers['x-api-key']).toBe('account-header-secret');
    expect(fake.lastFields()).toEqual({ phone: '+79991234512', text: expect.stringMatching(/\d{6}/) });

    const removed = await t.as(accountAuth).delete('/settings/sms-gateway');
    expect(removed.body.model).toMatchObject({ source: 'service', url: `${fake.url}/service/send` });
    const journal = await journalOfToday(t, accountAuth);
    const events = journal.filter((e) => e.object === 'ExternalSMS');
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['Enable', 'Disable']));
    expect(events.find((e) => e.action === 'Enable')?.additionalFields).toMatchObject({
      Method: 'sms',
      Gateway: `${fake.url}/account/sms`,
    });
    expect(JSON.stringify(journal)).not.toContain('account-gateway-password');
  });

  it('a call gateway of the account reads the code: `c` goes there', async () => {
    const put = await t
      .as(accountAuth)
      .put('/settings/call-gateway')
      .send({ url: `${fake.url}/call`, bodyFormat: 'json', body: { number: '{phone}', say: '{text}' } });
    expect(put.body.model).toMatchObject({ method: 'call', source: 'account' });
    const { identity } = await userWithPhone();
    const sent = await ra({ identity, passCode: 'c' });
    expect(sent.body.model.replyMessage).toBe('A call to +7 ••• •• 12 will read the code to you. Enter the code.');
    expect(fake.requests.at(-1)?.url).toBe('/call');
    expect(fake.lastFields()['say']).toMatch(/\d \d \d \d \d \d/);
    const journal = await journalOfToday(t, accountAuth);
    expect(journal.some((e) => e.object === 'ExternalSIP' && e.action === 'Enable')).toBe(true);
    await t.as(accountAuth).delete('/settings/call-gateway');
  });

  it('refuses a gateway that is not a template, with the exact message', async () => {
    const res = await t
      .as(accountAuth)
      .put('/settings/sms-gateway')
      .send({ url: 'ftp://x', basicAuth: { username: 'a', password: 'hidden' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'url must be an http(s) URL.' });
  });

  describe('abuse limits', () => {
    const limitHits = async () =>
      (await journalOfToday(t, accountAuth)).filter((e) => e.object === 'AccessRequest' && e.action === 'PhoneCodeLimit');

    it('a burst for one user: the cooldown, then the hourly cap; each hit journaled and counted', async () => {
      const { identity } = await userWithPhone();
      expect((await ra({ identity, passCode: 's' })).body.model.status).toBe('AwaitingAuthentication');
      const sentBefore = fake.requests.length;
      const cooled = await ra({ identity, passCode: 's' });
      expect(cooled.body.model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: too many codes requested. Try again later.',
      });
      expect(fake.requests.length).toBe(sentBefore);
      for (let i = 0; i < 4; i++) {
        t.clock.advance(31_000);
        expect((await ra({ identity, passCode: 's' })).body.model.status).toBe('AwaitingAuthentication');
      }
      t.clock.advance(31_000);
      expect((await ra({ identity, passCode: 's' })).body.model.status).toBe('Denied');
      const hits = (await limitHits()).filter((e) => e.subject === identity);
      expect(hits.map((e) => e.additionalFields['PhoneCodeLimit'])).toEqual(['cooldown', 'hourlyCap']);
      expect(hits[0].additionalFields).toMatchObject({ Method: 'sms', Destination: '+7 ••• •• 12', UserIdentity: identity });
      const metrics = (await t.http().get('/metrics')).text;
      expect(metrics).toMatch(/twofold_phone_codes_total\{method="sms",outcome="cooldown"\} [1-9]/);
      expect(metrics).toMatch(/twofold_phone_codes_total\{method="sms",outcome="hourly_cap"\} [1-9]/);
    });

    it("a parallel burst for one user sends one code: the sends queue behind the user's row lock", async () => {
      const { identity, userId } = await userWithPhone();
      const sentBefore = fake.requests.length;
      const answers = await Promise.all(Array.from({ length: 6 }, () => ra({ identity, passCode: 's' })));
      const statuses = answers.map((a) => a.body.model.status).sort();
      expect(statuses).toEqual(['AwaitingAuthentication', 'Denied', 'Denied', 'Denied', 'Denied', 'Denied']);
      expect(fake.requests.length - sentBefore).toBe(1);
      expect(await codeRows(userId)).toBe(1);
    });

    it('a number outside the allow-list (a premium-rate range) gets nothing', async () => {
      const set = await t
        .as(accountAuth)
        .put('/settings/phone-destinations')
        .send({ allowedPrefixes: ['+7', '+375'] });
      expect(set.body.model).toEqual({ allowedPrefixes: ['+7', '+375'] });
      const bad = await t
        .as(accountAuth)
        .put('/settings/phone-destinations')
        .send({ allowedPrefixes: ['7'] });
      expect(bad.body.message).toBe('Each prefix must be "+" and one to six digits, such as "+7".');
      const { identity } = await userWithPhone('+442071838750');
      const sentBefore = fake.requests.length;
      const denied = await ra({ identity, passCode: 's' });
      expect(denied.body.model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: codes cannot be sent to this phone number.',
      });
      expect(fake.requests.length).toBe(sentBefore);
      expect((await limitHits()).find((e) => e.subject === identity)?.additionalFields['PhoneCodeLimit']).toBe('destination');
      await t.as(accountAuth).put('/settings/phone-destinations').send({ allowedPrefixes: [] });
    });

    it('the breaker: a campaign of unanswered codes to one range suspends that range, not the others', async () => {
      // twenty users on rented numbers of one range, none of whose codes is ever entered
      for (let i = 0; i < 20; i++) {
        const { identity } = await userWithPhone(`+8823555100${String(i).padStart(2, '0')}`);
        expect((await ra({ identity, passCode: 's' })).body.model.status).toBe('AwaitingAuthentication');
      }
      // their five minutes pass unanswered
      t.clock.advance(6 * 60_000);
      const next = await userWithPhone('+882355510099');
      const sentBefore = fake.requests.length;
      const denied = await ra({ identity: next.identity, passCode: 's' });
      expect(denied.body.model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: too many codes requested. Try again later.',
      });
      expect(fake.requests.length).toBe(sentBefore);
      expect((await limitHits()).find((e) => e.subject === next.identity)?.additionalFields['PhoneCodeLimit']).toBe('breaker');
      expect((await t.http().get('/metrics')).text).toMatch(/twofold_phone_codes_total\{method="sms",outcome="breaker"\} 1/);
      // another range is served as before
      const elsewhere = await userWithPhone('+79991234512');
      expect((await ra({ identity: elsewhere.identity, passCode: 's' })).body.model.status).toBe('AwaitingAuthentication');
      // after the window the range is tried again
      t.clock.advance(61 * 60_000);
      expect((await ra({ identity: next.identity, passCode: 's' })).body.model.status).toBe('AwaitingAuthentication');
    });

    it("a burst across many users of one account: the account's daily budget", async () => {
      const first = await userWithPhone();
      const sent = await ra({ identity: first.identity, passCode: 's' });
      // the day's codes so far, as if sent to the account's other users
      await t.database.dataSource.query(
        `INSERT INTO phone_codes (account_id, access_request_id, user_id, method, phone, code_hash, created_at, expires_at)
         SELECT $1, $2, $3, 'sms', '+79991234512', '\\x00', $4, $4 FROM generate_series(1, 1000)`,
        [accountId, sent.body.model.id, first.userId, t.clock.now()],
      );
      const other = await userWithPhone();
      const denied = await ra({ identity: other.identity, passCode: 's' });
      expect(denied.body.model.status).toBe('Denied');
      expect((await limitHits()).find((e) => e.subject === other.identity)?.additionalFields['PhoneCodeLimit']).toBe('dailyBudget');
    });
  });
});
