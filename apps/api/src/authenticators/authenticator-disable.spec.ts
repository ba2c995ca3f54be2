import { generateTotp } from '@twofold/otp';
import { AuthenticatorEntity } from '@twofold/persistence';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';

/** 20 bytes, the RFC 6238 test key, and another one */
const KEY_HEX = '3132333435363738393031323334353637383930';
const OTHER_KEY_HEX = '0102030405060708090a0b0c0d0e0f1011121314';
const KEY = Buffer.from(KEY_HEX, 'hex');
const OTHER_KEY = Buffer.from(OTHER_KEY_HEX, 'hex');

/** POST /users/{id}/authenticators/{type}/{authenticatorid}/disable and /enable, and what they do to access. */
describe('disabling an authenticator', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.set(TEST_NOW));

  /** A fresh account with a resource, its own journal, and users with TOTP authenticators. */
  async function setup() {
    const { account, authorization } = await t.newAccount();
    const resource = await t.newResource(account.id, 'VPN');
    const api = t.as(authorization);
    const userWithTotp = async (identity: string, keys: { name: string; key: Buffer }[] = [{ name: 'Phone', key: KEY }]) => {
      const user = await newUser(t.db, account.id, identity, { now: t.clock.now() });
      const ids: string[] = [];
      for (const { name, key } of keys) {
        ids.push((await newOtpAuthenticator(t.db, t.cipher, account.id, user.id, { kind: 'Totp', key, name, now: t.clock.now() })).id);
        // listed oldest first: each one a second after the one before
        t.clock.advance(1_000);
      }
      return { userId: user.id, ids };
    };
    const journal = () => journalOfToday(t, authorization, 'object=Authenticator');
    const ra = async (body: object) => {
      const res = await t.as(resource).post('/access/requests/ra').send(body);
      expect(res.status).toBe(200);
      return res.body;
    };
    const challenge = async (body: object) => {
      const res = await t.as(resource).post('/access/requests/ra/challenge').send(body);
      expect(res.status).toBe(200);
      return res.body;
    };
    const createRequest = async (identity: string): Promise<string> => {
      const res = await t.as(resource).post('/access/requests').send({ identity, language: 'en' });
      expect(res.status).toBe(200);
      return new URL(res.body.model.url).pathname;
    };
    return { account, api, userWithTotp, journal, ra, challenge, createRequest };
  }

  const codeOf = (key: Buffer) => generateTotp({ secret: key, time: t.clock.now().getTime() });
  const path = (userId: string, id: string, action: 'disable' | 'enable', type = 'totp') =>
    `/users/${userId}/authenticators/${type}/${id}/${action}`;
  const formTokenOf = (html: string) => {
    const match = /<input type="hidden" name="formToken" value="([^"]+)">/.exec(html);
    if (!match) throw new Error('no form token on the page');
    return match[1];
  };

  describe('the API', () => {
    it('disables and enables: listed with disabled: true meanwhile, journaled with the authenticator, idempotent', async () => {
      const s = await setup();
      const { userId, ids } = await s.userWithTotp('ann', [
        { name: 'Phone', key: KEY },
        { name: 'Tablet', key: OTHER_KEY },
      ]);
      const [phone, tablet] = ids;

      const disabled = await s.api.post(path(userId, phone, 'disable')).send({});
      expect(disabled.status).toBe(200);
      expect(disabled.body).toEqual({
        model: { id: phone, name: 'Phone', disabled: true },
        success: true,
        message: 'Authenticator disabled.',
      });
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({
        Totp: [
          { id: phone, name: 'Phone', disabled: true },
          { id: tablet, name: 'Tablet' },
        ],
      });
      expect((await t.database.dataSource.getRepository(AuthenticatorEntity).findOneByOrFail({ id: phone })).disabled).toBe(true);
      // again: still disabled, still 200; the type in any case
      expect((await s.api.post(path(userId, phone, 'disable', 'TOTP')).send({})).status).toBe(200);

      const enabled = await s.api.post(path(userId, phone, 'enable')).send({});
      expect(enabled.status).toBe(200);
      expect(enabled.body).toEqual({ model: { id: phone, name: 'Phone' }, success: true, message: 'Authenticator enabled.' });
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({
        Totp: [
          { id: phone, name: 'Phone' },
          { id: tablet, name: 'Tablet' },
        ],
      });
      // the user object's kinds count a disabled authenticator as configured
      await s.api.post(path(userId, phone, 'disable')).send({});
      await s.api.post(path(userId, tablet, 'disable')).send({});
      const users = await s.api.get('/users?limit=1000');
      expect(users.body.model.find((u: { id: string }) => u.id === userId)).toMatchObject({ authenticators: ['Totp'], isEnrolled: true });

      const events = await s.journal();
      expect(events.map((e) => [e.object, e.action, e.success])).toEqual([
        ['Authenticator', 'Disable', true],
        ['Authenticator', 'Disable', true],
        ['Authenticator', 'Enable', true],
        ['Authenticator', 'Disable', true],
        ['Authenticator', 'Disable', true],
      ]);
      for (const event of [events[0], events[2]])
        expect(event.additionalFields).toMatchObject({
          UserId: userId,
          UserIdentity: 'ann',
          AuthenticatorId: phone,
          AuthenticatorKind: 'Totp',
          AuthenticatorName: 'Phone',
        });
      const text = JSON.stringify(events).toLowerCase();
      for (const secret of [KEY_HEX, OTHER_KEY_HEX, KEY.toString('base64').toLowerCase()]) expect(text).not.toContain(secret);
    });

    it("answers 404 for an unknown user or authenticator, another account's, a wrong kind; 400 for a phone; journaled as failures", async () => {
      const s = await setup();
      const other = await setup();
      const { userId, ids } = await s.userWithTotp('bea');
      const theirs = await other.userWithTotp('mallory');
      const unknown = '00000000-0000-4000-8000-000000000000';
      for (const action of ['disable', 'enable'] as const) {
        expect((await s.api.post(path(unknown, ids[0], action)).send({})).status).toBe(404);
        expect((await s.api.post(path(userId, unknown, action)).send({})).status).toBe(404);
        expect((await s.api.post(path(userId, 'xyz', action)).send({})).status).toBe(404);
        expect((await s.api.post(path(theirs.userId, theirs.ids[0], action)).send({})).status).toBe(404);
        expect((await s.api.post(path(userId, theirs.ids[0], action)).send({})).status).toBe(404);
        expect((await s.api.post(path(userId, ids[0], action, 'totptoken')).send({})).status).toBe(404);
        expect((await s.api.post(path(userId, ids[0], action, 'fido')).send({})).status).toBe(404);
      }
      const notFound = await s.api.post(path(userId, unknown, 'disable')).send({});
      expect(notFound.body).toMatchObject({ model: null, success: false, message: 'Authenticator not found.' });
      expect((await t.http().post(path(userId, ids[0], 'disable'))).status).toBe(401);
      // nothing changed, here or in the other account
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({ Totp: [{ id: ids[0], name: 'Phone' }] });
      expect((await other.api.get(`/users/${theirs.userId}/authenticators`)).body.model).toEqual({
        Totp: [{ id: theirs.ids[0], name: 'Phone' }],
      });

      // a phone is an Sms authenticator of the listing, changed through the phone endpoints only
      await t.database.dataSource.query(
        `INSERT INTO phones (account_id, user_id, number, created_at) VALUES ($1, $2, '+15555550100', now())`,
        [s.account.id, userId],
      );
      const smsId = (await s.api.get(`/users/${userId}/authenticators`)).body.model.Sms[0].id;
      const sms = await s.api.post(path(userId, smsId, 'disable', 'sms')).send({});
      expect(sms.status).toBe(400);
      expect(sms.body.message).toBe('An SMS authenticator is a phone number: remove it with the phone endpoints of the user API.');

      const events = await s.journal();
      expect(events).toHaveLength(16);
      expect(events.every((e) => !e.success)).toBe(true);
      expect(events.filter((e) => e.action === 'Enable')).toHaveLength(7);
    });

    it('a copy of a disabled token is disabled too', async () => {
      const s = await setup();
      const { userId } = await s.userWithTotp('cid', []);
      const { userId: targetId } = await s.userWithTotp('dot', []);
      const registered = await s.api.post(`/users/${userId}/authenticators/totptoken`).send({ Name: 'Fob', Key: KEY_HEX });
      expect(registered.status).toBe(200);
      const token = registered.body.model.id;
      expect((await s.api.post(path(userId, token, 'disable', 'totptoken')).send({})).status).toBe(200);
      const copied = await s.api.patch(`/users/${userId}/authenticators/totptoken/${token}`).send({ users: [targetId] });
      expect(copied.status).toBe(200);
      expect((await s.api.get(`/users/${targetId}/authenticators`)).body.model).toEqual({
        TotpToken: [{ id: copied.body.model.copies[0].id, name: 'Fob', disabled: true }],
      });
    });
  });

  describe('/access/requests/ra', () => {
    it("refuses a disabled TOTP's right code, grants the enabled one's, and grants it again once enabled", async () => {
      const s = await setup();
      const { userId, ids } = await s.userWithTotp('eve', [
        { name: 'Phone', key: KEY },
        { name: 'Tablet', key: OTHER_KEY },
      ]);
      await s.api.post(path(userId, ids[0], 'disable')).send({});
      const refused = await s.ra({ identity: 'eve', passCode: codeOf(KEY), language: 'en' });
      expect(refused.model).toMatchObject({ status: 'Denied', replyMessage: 'Access denied: wrong code.' });
      expect((await s.ra({ identity: 'eve', passCode: codeOf(OTHER_KEY), language: 'en' })).model.status).toBe('Granted');

      t.clock.advance(30_000);
      await s.api.post(path(userId, ids[0], 'enable')).send({});
      expect((await s.ra({ identity: 'eve', passCode: codeOf(KEY), language: 'en' })).model.status).toBe('Granted');
    });

    it('denies a user whose every authenticator is disabled, telling them to contact the administrator; enable restores', async () => {
      const s = await setup();
      const { userId, ids } = await s.userWithTotp('fay');
      await s.api.post(path(userId, ids[0], 'disable')).send({});
      for (const language of ['en', 'ru']) {
        const denied = await s.ra({ identity: 'fay', passCode: codeOf(KEY), language });
        expect(denied.model.status).toBe('Denied');
        expect(denied.model.replyMessage).toBe(
          language === 'en'
            ? 'Access denied: your second factor has been disabled. Contact your administrator.'
            : 'Доступ запрещён: ваш второй фактор отключён. Обратитесь к администратору.',
        );
      }
      // without a code too: no prompt for a code that could not be accepted
      expect((await s.ra({ identity: 'fay', language: 'en' })).model.status).toBe('Denied');
      const [row] = await t.database.dataSource.query(`SELECT last_time_step FROM authenticators WHERE id = $1`, [ids[0]]);
      expect(row.last_time_step).toBeNull();

      await s.api.post(path(userId, ids[0], 'enable')).send({});
      expect((await s.ra({ identity: 'fay', passCode: codeOf(KEY), language: 'en' })).model.status).toBe('Granted');
    });

    it('denies on /ra/challenge when the authenticator was disabled after the ra step', async () => {
      const s = await setup();
      const { userId, ids } = await s.userWithTotp('gil');
      const started = await s.ra({ identity: 'gil', language: 'en' });
      expect(started.model.status).toBe('AwaitingAuthentication');
      await s.api.post(path(userId, ids[0], 'disable')).send({});
      const denied = await s.challenge({ identity: 'gil', challenge: codeOf(KEY), requestId: started.model.id });
      expect(denied.model).toMatchObject({
        status: 'Denied',
        replyMessage: 'Access denied: your second factor has been disabled. Contact your administrator.',
      });
      const [row] = await t.database.dataSource.query('SELECT status FROM access_requests WHERE id = $1', [started.model.id]);
      expect(row.status).toBe('Denied');
    });
  });

  describe('the access page', () => {
    it("refuses a disabled TOTP's right code as a wrong one while another authenticator is enabled", async () => {
      const s = await setup();
      const { userId, ids } = await s.userWithTotp('hal', [
        { name: 'Phone', key: KEY },
        { name: 'Tablet', key: OTHER_KEY },
      ]);
      await s.api.post(path(userId, ids[0], 'disable')).send({});
      const browser = t.browser();
      const page = await s.createRequest('hal');
      const form = await browser.get(page);
      expect(form.status).toBe(200);
      const wrong = await browser
        .post(page)
        .type('form')
        .send({ code: codeOf(KEY), formToken: formTokenOf(form.text) });
      expect(wrong.status).toBe(200);
      expect(wrong.text).toContain('That code is not right. 4 attempt(s) left.');
      const granted = await browser
        .post(page)
        .type('form')
        .send({ code: codeOf(OTHER_KEY), formToken: formTokenOf(form.text) });
      expect(granted.text).toContain('<h1>Access granted</h1>');
    });

    it('shows a user whose every authenticator is disabled a refusal, not an enrollment; the request is Denied; enable restores', async () => {
      const s = await setup();
      const { userId, ids } = await s.userWithTotp('ivy');
      await s.api.post(path(userId, ids[0], 'disable')).send({});
      const browser = t.browser();
      const page = await s.createRequest('ivy');
      const refused = await browser.get(page);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('Your second factor has been disabled. Contact your administrator.');
      expect(refused.text).not.toContain('otpauth://');
      expect(refused.text).not.toContain('name="code"');
      const [row] = await t.database.dataSource.query(`SELECT status FROM access_requests WHERE identity = 'ivy'`);
      expect(row.status).toBe('Denied');
      // nothing was enrolled over the disabled factor
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({
        Totp: [{ id: ids[0], name: 'Phone', disabled: true }],
      });

      // a form loaded before the disabling: the code is not looked at, the request is Denied
      await s.api.post(path(userId, ids[0], 'enable')).send({});
      const next = await s.createRequest('ivy');
      const form = await browser.get(next);
      expect(form.status).toBe(200);
      await s.api.post(path(userId, ids[0], 'disable')).send({});
      const submitted = await browser
        .post(next)
        .type('form')
        .send({ code: codeOf(KEY), formToken: formTokenOf(form.text) });
      expect(submitted.status).toBe(403);
      expect(submitted.text).toContain('Your second factor has been disabled. Contact your administrator.');

      await s.api.post(path(userId, ids[0], 'enable')).send({});
      const again = await s.createRequest('ivy');
      const codeForm = await browser.get(again);
      const granted = await browser
        .post(again)
        .type('form')
        .send({ code: codeOf(KEY), formToken: formTokenOf(codeForm.text) });
      expect(granted.text).toContain('<h1>Access granted</h1>');
    });
  });
});
