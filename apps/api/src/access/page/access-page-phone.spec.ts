import { AccountId, parseHttpGatewaySettings } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { jwtVerify } from 'jose';
import { FAKE_GATEWAY_SECRET_BODY, FakePhoneGateway } from '../../../test/testing/fake-phone-gateway';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

/**
 * The access page's "send a code by SMS" / "call me": the same phone code as `s`/`c` on `ra` (limits,
 * five minutes, single use, bound to the request, its five attempts), sent through a loopback fake
 * provider, with plain form posts (no script).
 */
describe('access page: codes sent to the phone', () => {
  let t: TestApp;
  let sms: FakePhoneGateway;
  let calls: FakePhoneGateway;
  let accountId: AccountId;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  let browser: ReturnType<TestApp['browser']>;
  const totpKey = Buffer.from('3132333435363738393031323334353637383930', 'hex');
  let n = 0;

  beforeAll(async () => {
    [sms, calls] = await Promise.all([FakePhoneGateway.start(), FakePhoneGateway.start()]);
    const gateway = (fake: FakePhoneGateway) =>
      parseHttpGatewaySettings({
        url: `${fake.url}/send`,
        method: 'POST',
        bodyFormat: 'json',
        body: { to: '{phone}', text: '{text}' },
        successContains: '"status":"queued"',
        timeoutMs: 300,
      });
    t = await startTestApp({ phoneGateways: { sms: gateway(sms), call: gateway(calls) } });
    accountId = (await t.newAccount()).account.id;
    resource = await t.newResource(accountId, 'Intranet');
    browser = t.browser();
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([sms.close(), calls.close()]);
  });
  beforeEach(() => {
    sms.mode = 'ok';
    calls.mode = 'ok';
  });

  /** Each test its own user (the per-user cooldown). */
  async function userWithPhone(options: { totp?: boolean } = {}) {
    const identity = `page-phone-${++n}`;
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await t.database.dataSource.query(
      `INSERT INTO phones (account_id, user_id, number, created_at) VALUES ($1, $2, '+79991234512', now())`,
      [accountId, user.id],
    );
    if (options.totp)
      await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: totpKey, now: t.clock.now() });
    return { identity, userId: user.id };
  }
  async function openPage(identity: string) {
    const res = await t.as(resource).post('/access/requests').send({ identity, language: 'en' });
    const path = new URL(res.body.model.url).pathname;
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    return { id: res.body.model.id as string, path, page: page.text };
  }
  const formTokenOf = (html: string) => /<input type="hidden" name="formToken" value="([^"]+)">/.exec(html)?.[1] ?? '';
  const post = (path: string, fields: Record<string, string>) => browser.post(path).type('form').send(fields);
  const codeIn = (fake: FakePhoneGateway) => /(\d{6})/.exec(fake.lastFields()['text'] ?? '')?.[1] ?? '';
  const requestRow = async (id: string) =>
    (await t.database.dataSource.query('SELECT status, failed_attempts FROM access_requests WHERE id = $1', [id]))[0];
  const codeRows = async (userId: string) =>
    Number((await t.database.dataSource.query(`SELECT count(*) AS n FROM phone_codes WHERE user_id = $1`, [userId]))[0].n);

  it('a user whose only factor is a phone: the page offers SMS and a call; the SMS code typed in completes the sign-in', async () => {
    const { identity } = await userWithPhone();
    const before = sms.requests.length;
    const { id, path, page } = await openPage(identity);
    // nothing is sent by merely opening the page
    expect(sms.requests).toHaveLength(before);
    expect(page).toContain(`Signed in as ${identity}. Get a code on your phone +7 ••• •• 12 and enter it.`);
    expect(page).toContain('<button type="submit" class="secondary" name="send" value="sms">Send a code by SMS</button>');
    expect(page).toContain('<button type="submit" class="secondary" name="send" value="call">Call me</button>');
    // the number itself never reaches the page
    expect(page).not.toContain('1234512');

    const sent = await post(path, { formToken: formTokenOf(page), send: 'sms' });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('The code was sent by SMS to +7 ••• •• 12.');
    expect(sent.text).toContain('Send the SMS again');
    expect(sms.lastFields()).toMatchObject({ to: '+79991234512' });
    const code = codeIn(sms);
    expect(code).toMatch(/^\d{6}$/);
    expect(sent.text).not.toContain(code);
    expect(await requestRow(id)).toEqual({ status: 'AwaitingAuthentication', failed_attempts: 0 });

    const granted = await post(path, { formToken: formTokenOf(sent.text), code });
    expect(granted.text).toContain('Sign-in confirmed');
    expect(await requestRow(id)).toMatchObject({ status: 'Granted' });
    const [history] = await t.database.dataSource.query(`SELECT authenticator FROM access_requests WHERE id = $1`, [id]);
    expect(history.authenticator).toBe('Sms');
  });

  it('"call me" goes to the call gateway, and the code it reads grants; a token user may use either', async () => {
    const { identity } = await userWithPhone({ totp: true });
    const { path, page } = await openPage(identity);
    expect(page).toContain('Open your authenticator app or token and enter the code it shows.');
    const smsBefore = sms.requests.length;
    const called = await post(path, { formToken: formTokenOf(page), send: 'call' });
    expect(called.text).toContain('A call to +7 ••• •• 12 will read the code to you.');
    expect(sms.requests).toHaveLength(smsBefore);
    // the call reads the code digit by digit
    const code = (/(\d(?: \d){5})/.exec(calls.lastFields()['text'] ?? '')?.[1] ?? '').replace(/ /g, '');
    expect(code).toMatch(/^\d{6}$/);
    const granted = await post(path, { formToken: formTokenOf(called.text), code });
    expect(granted.text).toContain('Sign-in confirmed');
  });

  it.each(['fail', 'slow', 'garbage'] as const)(
    'a gateway in %s mode: the page says so at once, the request waits with nothing spent, the answer body never shown',
    async (mode) => {
      const { identity, userId } = await userWithPhone();
      const { id, path, page } = await openPage(identity);
      sms.mode = mode;
      const failed = await post(path, { formToken: formTokenOf(page), send: 'sms' });
      expect(failed.status).toBe(200);
      expect(failed.text).toContain('Could not send the code by SMS. Try again later or use another way to sign in.');
      expect(failed.text).not.toContain(FAKE_GATEWAY_SECRET_BODY);
      expect(await requestRow(id)).toEqual({ status: 'AwaitingAuthentication', failed_attempts: 0 });
      expect(await codeRows(userId)).toBe(0);
      // nothing charged: no cooldown stops the next press once the gateway is back
      sms.mode = 'ok';
      const sent = await post(path, { formToken: formTokenOf(failed.text), send: 'sms' });
      expect(sent.text).toContain('The code was sent by SMS to +7 ••• •• 12.');
    },
  );

  it('the same limits as `s`: a second press within the cooldown sends nothing and says so; the request keeps waiting', async () => {
    const { identity, userId } = await userWithPhone();
    const { id, path, page } = await openPage(identity);
    const first = await post(path, { formToken: formTokenOf(page), send: 'sms' });
    const code = codeIn(sms);
    const second = await post(path, { formToken: formTokenOf(first.text), send: 'sms' });
    expect(second.text).toContain('Too many codes were requested. Wait a little and try again.');
    expect(await codeRows(userId)).toBe(1);
    expect(await requestRow(id)).toEqual({ status: 'AwaitingAuthentication', failed_attempts: 0 });
    const limits = await t.database.dataSource.query(
      `SELECT additional_fields FROM journal_events WHERE action = 'PhoneCodeLimit' AND additional_fields->>'UserId' = $1`,
      [userId],
    );
    expect(limits).toEqual([{ additional_fields: expect.objectContaining({ PhoneCodeLimit: 'cooldown', Channel: 'page' }) }]);
    // the code sent first still grants
    const granted = await post(path, { formToken: formTokenOf(second.text), code });
    expect(granted.text).toContain('Sign-in confirmed');
  });

  it("a wrong code spends one of the request's five attempts, before or after the press; an expired code is a wrong one", async () => {
    const { identity } = await userWithPhone();
    const { id, path, page } = await openPage(identity);
    const early = await post(path, { formToken: formTokenOf(page), code: '000000' });
    expect(early.text).toContain('That code is not right. 4 attempt(s) left.');
    const sent = await post(path, { formToken: formTokenOf(early.text), send: 'sms' });
    const code = codeIn(sms);
    const wrong = code === '111111' ? '222222' : '111111';
    const after = await post(path, { formToken: formTokenOf(sent.text), code: wrong });
    expect(after.text).toContain('That code is not right. 3 attempt(s) left.');
    t.clock.advance(5 * 60_000 + 1);
    const late = await post(path, { formToken: formTokenOf(after.text), code });
    expect(late.text).toContain('That code is not right. 2 attempt(s) left.');
    expect(await requestRow(id)).toEqual({ status: 'AwaitingAuthentication', failed_attempts: 3 });
  });

  it('a press without the page’s form token is refused as forged: nothing is sent', async () => {
    const { identity } = await userWithPhone();
    const { path } = await openPage(identity);
    const before = sms.requests.length;
    const forged = await post(path, { send: 'sms' });
    expect(forged.status).toBe(403);
    expect(sms.requests).toHaveLength(before);
  });

  it('a user without a phone is offered no button; a forged press sends nothing and asks for the code', async () => {
    const identity = `page-nophone-${++n}`;
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: totpKey, now: t.clock.now() });
    const { id, path, page } = await openPage(identity);
    expect(page).not.toContain('name="send"');
    const before = sms.requests.length;
    const pressed = await post(path, { formToken: formTokenOf(page), send: 'sms' });
    expect(pressed.text).toContain('<input id="code"');
    expect(sms.requests).toHaveLength(before);
    const code = generateTotp({ secret: totpKey, time: t.clock.now().getTime() });
    const granted = await post(path, { formToken: formTokenOf(pressed.text), code });
    expect(granted.text).toContain('Sign-in confirmed');
    expect(await requestRow(id)).toMatchObject({ status: 'Granted' });
  });

  it('the AccessToken of an SMS sign-in says a code was checked (amr otp)', async () => {
    const { identity } = await userWithPhone();
    const res = await t
      .as(resource)
      .post('/access/requests')
      .send({ identity, language: 'en', callback: { action: 'https://app.example/cb', target: '_self' } });
    const path = new URL(res.body.model.url).pathname;
    const page = await browser.get(path);
    const sent = await post(path, { formToken: formTokenOf(page.text), send: 'sms' });
    const granted = await post(path, { formToken: formTokenOf(sent.text), code: codeIn(sms) });
    const token = /name="accessToken" value="([^"]+)"/.exec(granted.text)?.[1] as string;
    const { payload } = await jwtVerify(token, new TextEncoder().encode(resource.apiSecret), { currentDate: t.clock.now() });
    expect(payload).toMatchObject({ sub: identity, amr: ['otp'] });
  });
});
