import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { generateTotp, parseBase32Key } from '@twofold/otp';
import { openDatabase } from '@twofold/persistence';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp, initApp } from '../../app/create-app';
import { AppConfig } from '../../config/app-config';
import { startTestApp, TestApp, TEST_NOW, asCaller } from '../../../test/testing/test-app';

const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');

interface JournalEvent {
  object: string;
  action: string;
  subject: string;
  success: boolean;
  additionalFields: Record<string, string>;
}

/**
 * IP lists judge every access request by the user's address: the page (the visitor behind
 * TRUSTED_PROXIES), `ra` and `md` (the `ip` the client sends, else its `callingStationId`),
 * `ra/challenge` (the address its `ra` step recorded). Deny refuses, Bypass grants without a code.
 */
describe('IP lists on access requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    // the page's visitor address comes from X-Forwarded-For, as behind a load balancer
    t = await startTestApp({ trustedProxies: ['127.0.0.1', '::1'] });
  });
  afterAll(() => t.close());

  async function setup() {
    // every test's codes are of a time step no other test spent
    t.clock.advance(120_000);
    const { account, authorization } = await t.newAccount();
    const vpn = await t.newResource(account.id, 'VPN');
    const portal = await t.newResource(account.id, 'Portal');
    const api = t.as(authorization);
    const newList = async (name: string, action: 'Bypass' | 'Deny', ranges: string[], resources: string[] = []) => {
      const res = await api.post('/ip-lists').send({ name, action, ranges, resources });
      expect(res.status).toBe(201);
      return res.body.model.id as string;
    };
    const totpUser = async (identity: string, options: { locked?: boolean } = {}) => {
      const user = await newUser(t.db, account.id, identity, { now: t.clock.now(), locked: options.locked });
      await newOtpAuthenticator(t.db, t.cipher, account.id, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
      return user;
    };
    const call = async (path: string, body: Record<string, unknown>, resource = vpn) => {
      const res = await t
        .as(resource)
        .post(path)
        .send({ language: 'en', ...body });
      expect(res.status).toBe(200);
      return res.body;
    };
    const journal = async (object: string): Promise<JournalEvent[]> =>
      (
        await t.database.dataSource.query(
          `SELECT object, action, subject, success, additional_fields AS "additionalFields" FROM journal_events
            WHERE account_id = $1 AND object = $2 ORDER BY event_date, id`,
          [account.id, object],
        )
      ).map((row: JournalEvent) => row);
    const history = async () => {
      // the history is of past days: read it the day after
      const saved = t.clock.now();
      t.clock.set(new Date(TEST_NOW.getTime() + 24 * 3600 * 1000));
      const res = await api.get('/access/requests?createdAt=2026-05-20&limit=1000');
      t.clock.set(saved);
      expect(res.status).toBe(200);
      return res.body.model.data as { id: string; identity: string; status: string; bypassed: boolean; authenticator: string | null }[];
    };
    const poll = async (id: string, resource = vpn) => {
      const res = await t.as(resource).get(`/access/requests/${id}`);
      expect(res.status).toBe(200);
      return res.body.model;
    };
    const streaks = async (userId: string) =>
      (await t.database.dataSource.query('SELECT count(*)::int AS n FROM wrong_code_streaks WHERE user_id = $1', [userId]))[0].n;
    return { account, vpn, portal, api, newList, totpUser, call, journal, history, poll, streaks };
  }

  const codeNow = () => generateTotp({ secret: KEY, time: t.clock.now().getTime() });
  const wrongCode = () => {
    const valid = [-30_000, 0, 30_000].map((offset) => generateTotp({ secret: KEY, time: t.clock.now().getTime() + offset }));
    return valid.includes('000000') ? '999999' : '000000';
  };

  describe('ra and md', () => {
    it('Deny: Denied (200, success false, the whole model) saying the network is not allowed, even with the right code', async () => {
      const s = await setup();
      await s.totpUser('dan');
      await s.newList('Blocked', 'Deny', ['203.0.113.0/24']);
      const body = await s.call('/access/requests/ra', { identity: 'dan', passCode: codeNow(), ip: '203.0.113.5' });
      expect(body).toEqual({
        model: expect.objectContaining({ identity: 'dan', status: 'Denied', bypassed: false, id: expect.any(String) }),
        success: false,
        message: 'Access denied: access from this network is not allowed.',
      });
      expect(body.model.replyMessage).toBe('Access denied: access from this network is not allowed.');
      const ru = await s.call('/access/requests/ra', { identity: 'dan', passCode: codeNow(), ip: '203.0.113.5', language: 'ru' });
      expect(ru.model.replyMessage).toBe('Доступ запрещён: вход из этой сети не разрешён.');
      // another address of the same user is not concerned
      expect((await s.call('/access/requests/ra', { identity: 'dan', passCode: codeNow(), ip: '198.51.100.1' })).model.status).toBe(
        'Granted',
      );
      // md behaves as ra
      const md = await s.call('/access/requests/md', { identity: 'dan', passCode: codeNow(), ip: '203.0.113.5' });
      expect(md).toMatchObject({ success: false, model: { status: 'Denied' } });
    });

    it('Bypass: Granted without a code, bypassed in the model, the history, the poll and the journal', async () => {
      const s = await setup();
      const user = await s.totpUser('bea');
      await s.newList('Office', 'Bypass', ['10.0.0.0/8', '2001:db8::/32']);
      const body = await s.call('/access/requests/ra', { identity: 'bea', ip: '10.1.2.3' });
      expect(body).toEqual({
        model: expect.objectContaining({
          identity: 'bea',
          status: 'Granted',
          bypassed: true,
          authenticator: null,
          replyMessage: 'Access granted.',
        }),
        success: true,
        message: null,
      });
      const id = body.model.id;
      expect(await s.poll(id)).toMatchObject({ id, status: 'Granted', bypassed: true, authenticator: null, ip: '10.1.2.3' });
      const [item] = (await s.history()).filter((row) => row.id === id);
      expect(item).toMatchObject({ status: 'Granted', bypassed: true });
      const [event] = await s.journal('AccessRequest');
      expect(event).toMatchObject({ object: 'AccessRequest', action: 'Bypass', subject: 'bea', success: true });
      expect(event.additionalFields).toMatchObject({
        UserIp: '10.1.2.3',
        Resource: 'VPN',
        IpList: 'Office',
        AccessRequestId: id,
        Channel: 'ra',
      });
      const lastLogin = (await t.database.dataSource.query('SELECT last_login FROM users WHERE id = $1', [user.id]))[0].last_login;
      expect(lastLogin).toEqual(t.clock.now());

      // an IPv6 address and an IPv4-mapped one; md too
      expect((await s.call('/access/requests/ra', { identity: 'bea', ip: '2001:db8::7' })).model).toMatchObject({
        status: 'Granted',
        bypassed: true,
      });
      expect((await s.call('/access/requests/md', { identity: 'bea', ip: '::ffff:10.0.0.9' })).model).toMatchObject({
        status: 'Granted',
        bypassed: true,
      });
      // a code-verified grant is not bypassed
      const coded = await s.call('/access/requests/ra', { identity: 'bea', passCode: codeNow(), ip: '198.51.100.2' });
      expect(coded.model).toMatchObject({ status: 'Granted', bypassed: false, authenticator: 'TotpToken' });
      expect(await s.poll(coded.model.id)).toMatchObject({ bypassed: false });
      expect((await s.history()).filter((row) => row.id === coded.model.id)[0]).toMatchObject({ bypassed: false });
    });

    it('Bypass ignores a passCode (not checked, not counted) and needs no second factor', async () => {
      const s = await setup();
      const user = await s.totpUser('cid');
      await s.newList('Office', 'Bypass', ['10.0.0.0/8']);
      for (let n = 0; n < 6; n += 1)
        expect((await s.call('/access/requests/ra', { identity: 'cid', passCode: wrongCode(), ip: '10.0.0.1' })).model.status).toBe(
          'Granted',
        );
      expect(await s.streaks(user.id)).toBe(0);
      // a delivery letter is ignored too
      expect((await s.call('/access/requests/ra', { identity: 'cid', passCode: 'm', ip: '10.0.0.1' })).model.status).toBe('Granted');
      // a user without any second factor
      await newUser(t.db, s.account.id, 'nofactor', { now: t.clock.now() });
      expect((await s.call('/access/requests/ra', { identity: 'nofactor', ip: '10.0.0.1' })).model).toMatchObject({
        status: 'Granted',
        bypassed: true,
      });
      expect((await s.call('/access/requests/ra', { identity: 'nofactor', ip: '192.0.2.1' })).model.status).toBe('Denied');
    });

    it('the address is `ip`, else `callingStationId` when it is an IP address; never the calling server own address', async () => {
      const s = await setup();
      await s.totpUser('eve');
      // the test client (the calling server) connects from the loopback
      await s.newList('Everything local', 'Bypass', ['127.0.0.0/8', '::1', '10.0.0.0/8']);
      await s.newList('Blocked', 'Deny', ['203.0.113.0/24']);
      expect((await s.call('/access/requests/ra', { identity: 'eve', ip: '10.0.0.1', callingStationId: '203.0.113.1' })).model.status).toBe(
        'Granted',
      );
      expect((await s.call('/access/requests/ra', { identity: 'eve', callingStationId: '203.0.113.1' })).model.status).toBe('Denied');
      expect((await s.call('/access/requests/ra', { identity: 'eve', Ip: null, CallingStationId: '10.4.4.4' })).model).toMatchObject({
        status: 'Granted',
        bypassed: true,
      });
      // a MAC address as the station id, or nothing: no address, no list applies (a code is asked for)
      expect((await s.call('/access/requests/ra', { identity: 'eve', callingStationId: '00-11-22-33-44-55' })).model.status).toBe(
        'AwaitingAuthentication',
      );
      expect((await s.call('/access/requests/ra', { identity: 'eve' })).model.status).toBe('AwaitingAuthentication');
    });

    it('Deny wins over Bypass; a list applies to the resources it names, or to every resource', async () => {
      const s = await setup();
      await s.totpUser('fay');
      await s.newList('Office', 'Bypass', ['10.0.0.0/8']);
      await s.newList('Lab', 'Deny', ['10.1.0.0/16']);
      await s.newList('Portal only', 'Bypass', ['192.0.2.0/24'], [s.portal.resource.id]);
      expect((await s.call('/access/requests/ra', { identity: 'fay', ip: '10.1.0.1' })).model.status).toBe('Denied');
      expect((await s.call('/access/requests/ra', { identity: 'fay', ip: '10.2.0.1' })).model.status).toBe('Granted');
      expect((await s.call('/access/requests/ra', { identity: 'fay', ip: '192.0.2.9' })).model.status).toBe('AwaitingAuthentication');
      expect((await s.call('/access/requests/ra', { identity: 'fay', ip: '192.0.2.9' }, s.portal)).model).toMatchObject({
        status: 'Granted',
        bypassed: true,
      });
      const events = await s.journal('AccessRequest');
      // one clock instant: in any order
      expect(events.map((e) => [e.additionalFields.Resource, e.additionalFields.IpList]).sort()).toEqual([
        ['Portal', 'Portal only'],
        ['VPN', 'Office'],
      ]);
    });

    it('a locked user is Denied whatever the lists say; an unknown identity stays UserNotRegistered', async () => {
      const s = await setup();
      await s.totpUser('lou', { locked: true });
      await s.newList('Office', 'Bypass', ['10.0.0.0/8']);
      const locked = await s.call('/access/requests/ra', { identity: 'lou', ip: '10.0.0.1' });
      expect(locked).toMatchObject({
        success: false,
        model: { status: 'Denied', bypassed: false, replyMessage: 'Access denied: the user is locked.' },
      });
      const unknown = await s.call('/access/requests/ra', { identity: 'nobody', ip: '10.0.0.1' });
      expect(unknown).toMatchObject({ success: false, message: 'UserNotRegistered', model: { status: 'Denied', bypassed: false } });
      expect(await s.journal('AccessRequest')).toEqual([]);
    });

    it('ra/challenge judges the address its ra step recorded', async () => {
      const s = await setup();
      await s.totpUser('gus');
      const first = await s.call('/access/requests/ra', { identity: 'gus', ip: '10.0.0.5' });
      expect(first.model.status).toBe('AwaitingAuthentication');
      const second = await s.call('/access/requests/ra', { identity: 'gus', ip: '203.0.113.5' });
      const listId = await s.newList('Office', 'Bypass', ['10.0.0.0/8']);
      await s.newList('Blocked', 'Deny', ['203.0.113.0/24']);

      // no code needed, a wrong one ignored; the challenge's own caller (the loopback) does not matter
      const granted = await s.call('/access/requests/ra/challenge', { identity: 'gus', challenge: wrongCode(), requestId: first.model.id });
      expect(granted).toMatchObject({ success: true, model: { id: first.model.id, status: 'Granted', bypassed: true } });
      expect(await s.poll(first.model.id)).toMatchObject({ status: 'Granted', bypassed: true, authenticator: null });
      const denied = await s.call('/access/requests/ra/challenge', { identity: 'gus', challenge: codeNow(), requestId: second.model.id });
      expect(denied).toMatchObject({
        success: false,
        model: { status: 'Denied', replyMessage: 'Access denied: access from this network is not allowed.' },
      });
      const [event] = await s.journal('AccessRequest');
      expect(event.additionalFields).toMatchObject({
        UserIp: '10.0.0.5',
        IpList: 'Office',
        AccessRequestId: first.model.id,
        Channel: 'ra',
      });

      // a removed list applies no more, at once
      await s.api.delete(`/ip-lists/${listId}`);
      expect((await s.call('/access/requests/ra', { identity: 'gus', ip: '10.0.0.5' })).model.status).toBe('AwaitingAuthentication');
    });
  });

  describe('the access page', () => {
    async function pageRequest(s: Awaited<ReturnType<typeof setup>>, identity: string, resource = s.vpn) {
      const res = await t
        .as(resource)
        .post('/access/requests')
        .send({ identity, language: 'en', claims: { role: 'staff' }, callback: { action: 'https://app.example/cb', target: '_self' } });
      expect(res.status).toBe(200);
      return { id: res.body.model.id as string, path: new URL(res.body.model.url).pathname };
    }
    const tokenOf = (html: string) => /<input type="hidden" name="accessToken" value="([^"]+)">/.exec(html)?.[1] ?? null;
    const formTokenOf = (html: string) => /name="formToken"[^>]*value="([^"]+)"/.exec(html)?.[1] as string;

    it('Bypass: the visitor behind the proxy goes straight to the callback, amr ["bypass"], also a new identity', async () => {
      const s = await setup();
      await s.newList('Office', 'Bypass', ['198.51.100.0/24']);
      for (const identity of ['newcomer', 'newcomer2']) {
        const req = await pageRequest(s, identity);
        const page = await t.browser().get(req.path).set('X-Forwarded-For', '198.51.100.20');
        expect(page.status).toBe(200);
        const token = tokenOf(page.text);
        expect(token).not.toBeNull();
        expect(page.text).toContain('action="https://app.example/cb"');
        expect(decodeJwt(token as string)).toMatchObject({ sub: identity, jti: req.id, role: 'staff', amr: ['bypass'] });
        expect(await s.poll(req.id)).toMatchObject({ status: 'Granted', bypassed: true, authenticator: null, ip: '198.51.100.20' });
      }
      const events = (await s.journal('AccessRequest')).filter((e) => e.subject === 'newcomer');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ action: 'Bypass', subject: 'newcomer', success: true });
      expect(events[0].additionalFields).toMatchObject({ UserIp: '198.51.100.20', Resource: 'VPN', IpList: 'Office', Channel: 'page' });
      // the user was registered by the visit
      expect((await s.api.get('/users?identity=newcomer')).body.model).toHaveLength(1);

      // a visitor from elsewhere (the proxy's own address does not count) gets the enrollment
      const other = await pageRequest(s, 'newcomer3');
      const enroll = await t.browser().get(other.path).set('X-Forwarded-For', '192.0.2.44');
      expect(enroll.status).toBe(200);
      expect(tokenOf(enroll.text)).toBeNull();
      expect(enroll.text).toContain('data-testid="secret"');
    });

    it('Bypass on a posted form: the code is not checked (nor counted)', async () => {
      const s = await setup();
      const user = await s.totpUser('hal');
      const req = await pageRequest(s, 'hal');
      const browser = t.browser();
      const page = await browser.get(req.path).set('X-Forwarded-For', '198.51.100.30');
      expect(page.text).toContain('name="code"');
      await s.newList('Office', 'Bypass', ['198.51.100.0/24']);
      const posted = await browser
        .post(req.path)
        .set('X-Forwarded-For', '198.51.100.30')
        .type('form')
        .send({ code: wrongCode(), formToken: formTokenOf(page.text) });
      expect(posted.status).toBe(200);
      expect(decodeJwt(tokenOf(posted.text) as string)).toMatchObject({ amr: ['bypass'] });
      expect(await s.streaks(user.id)).toBe(0);
      expect(
        (await t.database.dataSource.query('SELECT failed_attempts FROM access_requests WHERE id = $1', [req.id]))[0].failed_attempts,
      ).toBe(0);
    });

    it('Deny: the page says access from this network is not allowed, and the request is Denied before anyone is registered', async () => {
      const s = await setup();
      await s.newList('Blocked', 'Deny', ['203.0.113.0/24']);
      await s.newList('Everyone', 'Bypass', ['0.0.0.0/0']);
      const req = await pageRequest(s, 'stranger');
      const page = await t.browser().get(req.path).set('X-Forwarded-For', '203.0.113.7');
      expect(page.status).toBe(403);
      expect(page.text).toContain('Access from this network is not allowed.');
      expect(tokenOf(page.text)).toBeNull();
      expect(await s.poll(req.id)).toMatchObject({ status: 'Denied', bypassed: false });
      expect((await s.api.get('/users?identity=stranger')).body.model).toEqual([]);
    });

    it('a locked user is Denied on the page whatever the lists say', async () => {
      const s = await setup();
      await s.totpUser('lin', { locked: true });
      await s.newList('Everyone', 'Bypass', ['0.0.0.0/0', '::/0']);
      const req = await pageRequest(s, 'lin');
      const page = await t.browser().get(req.path).set('X-Forwarded-For', '198.51.100.1');
      expect(page.status).toBe(403);
      expect(page.text).toContain('Your account is locked.');
      expect(await s.poll(req.id)).toMatchObject({ status: 'Denied', bypassed: false });
    });

    it('a locked user at a Deny address is told they are locked, on the page as on ra: one order of refusals', async () => {
      const s = await setup();
      await s.totpUser('lea', { locked: true });
      await s.newList('Blocked', 'Deny', ['203.0.113.0/24']);
      const req = await pageRequest(s, 'lea');
      const page = await t.browser().get(req.path).set('X-Forwarded-For', '203.0.113.8');
      expect(page.status).toBe(403);
      expect(page.text).toContain('Your account is locked.');
      expect(await s.poll(req.id)).toMatchObject({ status: 'Denied' });
      const ra = await s.call('/access/requests/ra', { identity: 'lea', passCode: codeNow(), ip: '203.0.113.8' });
      expect(ra.model.replyMessage).toBe('Access denied: the user is locked.');
    });

    it('a code-verified token carries amr ["otp"]; a refreshed token keeps its amr', async () => {
      const s = await setup();
      // enrolled on the page with a code
      const req = await pageRequest(s, 'ola');
      const browser = t.browser();
      const page = await browser.get(req.path);
      const secret = parseBase32Key(/data-testid="secret">([A-Z2-7]+)<\/code>/.exec(page.text)?.[1] as string);
      const granted = await browser
        .post(req.path)
        .type('form')
        .send({ code: generateTotp({ secret, time: t.clock.now().getTime() }), formToken: formTokenOf(page.text) });
      const otpToken = tokenOf(granted.text) as string;
      expect(decodeJwt(otpToken)).toMatchObject({ sub: 'ola', amr: ['otp'] });
      expect(await s.poll(req.id)).toMatchObject({ status: 'Granted', bypassed: false, authenticator: 'Totp' });

      await s.newList('Office', 'Bypass', ['198.51.100.0/24']);
      const bypassReq = await pageRequest(s, 'ola');
      const bypassToken = tokenOf((await t.browser().get(bypassReq.path).set('X-Forwarded-For', '198.51.100.5')).text) as string;
      expect(decodeJwt(bypassToken)).toMatchObject({ amr: ['bypass'] });

      for (const [token, amr] of [
        [otpToken, ['otp']],
        [bypassToken, ['bypass']],
      ] as const) {
        const refreshed = await t.as(s.vpn).post('/token/refresh').send({ AccessToken: token });
        expect(refreshed.body.success).toBe(true);
        expect(decodeJwt(refreshed.body.model)).toMatchObject({ sub: 'ola', role: 'staff', amr });
      }
    });
  });

  it('an account with lists changed by another API instance is judged by the new lists at the next request', async () => {
    const config = t.app.get<AppConfig>('twofold:app-config');
    const secondDataSource: DataSource = await openDatabase({
      url: t.database.url,
      poolSize: 4,
      applicationName: 'twofold-second-instance',
    });
    const second: NestFastifyApplication = await createApp({
      config: { ...config, logLevel: 'silent' },
      dataSource: secondDataSource,
      clock: t.clock,
    });
    await initApp(second);
    try {
      const s = await setup();
      await s.totpUser('ivy');
      const listId = await s.newList('Office', 'Bypass', ['10.0.0.0/8']);
      const raOnSecond = async (ip: string) =>
        (
          await asCaller(s.vpn, () => request(second.getHttpServer()))
            .post('/access/requests/ra')
            .send({ identity: 'ivy', ip })
        ).body.model.status;
      // the second instance compiles and keeps the lists
      expect(await raOnSecond('10.0.0.1')).toBe('Granted');
      // changed through the first instance: a Bypass becomes a Deny
      await s.api.put(`/ip-lists/${listId}`).send({ name: 'Office', ranges: ['10.0.0.0/8'], action: 'Deny' });
      expect(await raOnSecond('10.0.0.1')).toBe('Denied');
      await s.api.delete(`/ip-lists/${listId}`);
      expect(await raOnSecond('10.0.0.1')).toBe('AwaitingAuthentication');
    } finally {
      await second.close();
      await secondDataSource.destroy().catch(() => undefined);
    }
  });
});
