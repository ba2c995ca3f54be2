import { randomUUID } from 'node:crypto';
import { ApprovalWaiter } from '../../src/approvals/approval-waiter';
import { MobileAppService } from '../../src/mobile-app/mobile-app.service';
import { FakePushService, FakeSubscription } from '../testing/fake-push-service';
import { startTestApp, TestApp } from '../testing/test-app';
import { TestDevice } from '../testing/test-device';
import { clientReading, hiddenInputs, RA_MODEL_FIELDS } from './client-kit';

/**
 * Confirming a sign-in in the service's own authenticator app: the RADIUS adapter sends `passCode` `m`
 * and the LDAP adapter `la`, each holding its request open; the service pushes "an approval is
 * waiting" through the device's push service (a fake on loopback, which the test decrypts with the
 * subscription's keys, as the phone's browser would), and the device, a real P-256 key of node:crypto,
 * fetches the approval and signs its decision.
 */
describe('client: confirming in the Twofold Authenticator app (RADIUS adapter `m`, LDAP adapter `la`)', () => {
  let t: TestApp;
  let push: FakePushService;
  let authorization: string;
  let accountId: Parameters<MobileAppService['createEnrollmentToken']>[0];
  let vpn: Awaited<ReturnType<TestApp['newResource']>>;
  let ldap: typeof vpn;

  beforeAll(async () => {
    push = await FakePushService.start();
    t = await startTestApp({ webPushLoopbackHttp: true });
    const account = await t.newAccount({ name: 'Acme Bank' });
    authorization = account.authorization;
    accountId = account.account.id;
    vpn = await t.newResource(accountId, 'Staff VPN');
    ldap = await t.newResource(accountId, 'LDAP proxy');
  });
  afterAll(async () => {
    await t?.close();
    await push?.close();
  });

  /** A user whose only factor is the app on a phone subscribed to the fake push service. */
  async function appUser(identity: string): Promise<{ userId: string; device: TestDevice; subscription: FakeSubscription }> {
    const userId = (await t.as(authorization).post('/users').send({ Identity: identity }).expect(200)).body.model.id as string;
    const { token } = await t.app.get(MobileAppService).createEnrollmentToken(accountId, userId);
    const device = new TestDevice(t);
    const subscription = push.subscribe();
    expect((await device.enroll(token, subscription)).status).toBe(200);
    return { userId, device, subscription };
  }

  const radius = (identity: string, passCode: string | null) =>
    t
      .http()
      .post('/access/requests/ra')
      .set('Authorization', vpn.authorization)
      .set('mf-trace-id', `rds-${randomUUID()}`)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(
        JSON.stringify({
          identity,
          name: null,
          email: null,
          phone: null,
          passCode,
          callingStationId: '198.51.100.23',
          calledStationId: 'vpn-gw-1',
          capabilities: { inlineEnroll: true },
          groupPolicyPreset: { signUpGroups: '' },
        }),
      )
      .then((res) => res);
  const la = (identity: string) =>
    t
      .http()
      .post('/access/requests/la')
      .set('Authorization', ldap.authorization)
      .set('mf-trace-id', `ldl-${randomUUID()}`)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ identity, email: null }))
      .then((res) => res);

  function asAdapter(res: { status: number; body: { success: boolean; model: Record<string, unknown> | null } }) {
    expect(clientReading(res.status)).toBe('answer');
    expect(Object.keys(res.body.model as object).sort()).toEqual(RA_MODEL_FIELDS);
    return res.body.model as { id: string; status: string; replyMessage: string; authenticator: string; authenticatorId: string };
  }

  /** The phone: the push arrives, is decrypted with the subscription's keys, and names the approval the app then fetches. */
  async function receive(user: { device: TestDevice; subscription: FakeSubscription }, after: number) {
    const message = await push.nextPush(user.subscription, after);
    expect(message.headers['content-encoding']).toBe('aes128gcm');
    expect(message.headers['ttl']).toBe('60');
    expect(message.headers['urgency']).toBe('high');
    expect(message.headers['authorization']).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    const payload = JSON.parse(push.decrypt(message));
    const listed = (await user.device.approvals().expect(200)).body.approvals as {
      id: string;
      nonce: string;
      resource: string;
      choices: number[] | null;
      address: string;
    }[];
    const approval = listed.find((a) => a.id === payload.approvalId);
    if (!approval) throw new Error('the pushed approval is not listed');
    return { payload, approval };
  }

  it('RADIUS with `m`: the push carries only "an approval is waiting"; the device\'s signed approval grants by the MobileApp factor', async () => {
    const user = await appUser('CORP\\mila');
    const held = radius('CORP\\mila', 'm');
    const { payload, approval } = await receive(user, 0);
    expect(payload).toEqual({ type: 'approval', approvalId: approval.id });
    expect(approval).toMatchObject({ resource: 'Staff VPN', address: '198.51.100.23' });
    expect((await user.device.decide(approval.id, 'approve', approval.nonce).expect(200)).body).toEqual({ result: 'approved' });
    const model = asAdapter(await held);
    expect(model).toMatchObject({ status: 'Granted', authenticator: 'MobileApp', authenticatorId: user.device.deviceId });
    // the history names the device's address (the app's request came from loopback here), not the VPN client's
    const history = await t.as(vpn.authorization).get(`/access/requests/${model.id}`).expect(200);
    expect(history.body.model).toMatchObject({ authenticator: 'MobileApp', twoFADeviceIp: expect.stringMatching(/127\.0\.0\.1|::1/) });
  });

  it('a phone with notifications blocked: no push, the request waits, and the app opened lists it and grants it', async () => {
    const userId = (await t.as(authorization).post('/users').send({ Identity: 'nika' }).expect(200)).body.model.id as string;
    const { token } = await t.app.get(MobileAppService).createEnrollmentToken(accountId, userId);
    const device = new TestDevice(t);
    expect((await device.enroll(token, null)).status).toBe(200);
    const held = radius('nika', 'm');
    // the user opens the app: it asks for what waits (each try is a signed request, bounded in number)
    let listed: { id: string; nonce: string }[] = [];
    for (let tries = 0; tries < 500 && listed.length === 0; tries += 1) {
      listed = (await device.approvals().expect(200)).body.approvals;
    }
    expect(listed).toHaveLength(1);
    await device.decide(listed[0].id, 'approve', listed[0].nonce).expect(200);
    expect(asAdapter(await held)).toMatchObject({ status: 'Granted', authenticator: 'MobileApp', authenticatorId: device.deviceId });
  });

  it('LDAP adapter `la`: granted by the app; "it wasn\'t me" is Denied', async () => {
    const user = await appUser('lev');
    const granted = la('lev');
    const first = await receive(user, 0);
    await user.device.decide(first.approval.id, 'approve', first.approval.nonce).expect(200);
    expect((await granted).body.model).toMatchObject({ status: 'Granted', authenticator: 'MobileApp' });
    const denied = la('lev');
    const second = await receive(user, 1);
    await user.device.decide(second.approval.id, 'notMe', second.approval.nonce).expect(200);
    expect((await denied).body.model).toMatchObject({ status: 'Denied' });
  });

  it('a push service that no longer knows the subscription (410): Denied at once, and the device forgets it', async () => {
    const user = await appUser('gone');
    push.answer(user.subscription, 410);
    const model = asAdapter(await radius('gone', 'm'));
    expect(model.status).toBe('Denied');
    expect(t.app.get(ApprovalWaiter).size).toBe(0);
    const [row] = await t.db
      .manager()
      .query(`SELECT push_endpoint FROM mobile_app_devices WHERE authenticator_id = $1`, [user.device.deviceId]);
    expect(row).toEqual({ push_endpoint: null });
    // the next sign-in has no subscription to push to: Denied at once too, nothing sent
    expect(asAdapter(await radius('gone', 'm')).status).toBe('Denied');
    expect(push.pushesTo(user.subscription)).toHaveLength(0);
  });

  it('a push service throttling (429) or failing (503) once: the push is retried within the bound and the app grants', async () => {
    for (const [identity, first] of [
      ['throttled', { status: 429, retryAfter: '1' }],
      ['hiccup', { status: 503 }],
    ] as const) {
      const user = await appUser(identity);
      push.answerNext(user.subscription, first);
      const held = radius(identity, 'm');
      const { approval } = await receive(user, 0);
      expect(push.attemptsTo(user.subscription)).toBe(2);
      await user.device.decide(approval.id, 'approve', approval.nonce).expect(200);
      expect(asAdapter(await held)).toMatchObject({ status: 'Granted', authenticator: 'MobileApp' });
    }
  });

  it('a push service failing (503) on every retry: Denied once the retries are spent, the subscription kept', async () => {
    const user = await appUser('flaky');
    push.answer(user.subscription, 503);
    expect(asAdapter(await radius('flaky', 'm')).status).toBe('Denied');
    expect(push.attemptsTo(user.subscription)).toBe(4);
    const [row] = await t.db
      .manager()
      .query(`SELECT push_endpoint FROM mobile_app_devices WHERE authenticator_id = $1`, [user.device.deviceId]);
    expect(row).toEqual({ push_endpoint: user.subscription.endpoint });
  });

  describe('the access page (a browser sign-in: the number)', () => {
    let site: typeof vpn;
    beforeAll(async () => {
      site = await t.newResource(accountId, 'Intranet');
    });
    async function pageOf(identity: string) {
      const created = await t
        .http()
        .post('/access/requests')
        .set('Authorization', site.authorization)
        .send({ identity, callback: { action: 'https://intranet.example/mfa', target: '_self' } })
        .expect(200);
      return new URL(created.body.model.url).pathname;
    }
    const numberOn = (html: string) => Number(/id="approval-number"[^>]*><strong>(\d\d)<\/strong>/.exec(html)?.[1]);

    it('the page shows the number, the app offers three with it, and the number picked on the device completes the page', async () => {
      const user = await appUser('page.pia');
      const path = await pageOf('page.pia');
      const browser = t.browser();
      const page = await browser.get(path).expect(200);
      const number = numberOn(page.text);
      const { approval } = await receive(user, 0);
      expect(approval.choices).toHaveLength(3);
      expect(approval.choices).toContain(number);
      expect((await user.device.decide(approval.id, number, approval.nonce).expect(200)).body).toEqual({ result: 'approved' });
      expect((await browser.get(`${path}/approval`)).body).toEqual({ status: 'decided' });
      const granted = await browser
        .post(path)
        .type('form')
        .send(Object.fromEntries(hiddenInputs(page.text)))
        .expect(200);
      expect(hiddenInputs(granted.text).get('accessToken')).toEqual(expect.any(String));
    });

    it('another of the three numbers denies the page', async () => {
      const user = await appUser('page.petr');
      const path = await pageOf('page.petr');
      const browser = t.browser();
      const page = await browser.get(path).expect(200);
      const number = numberOn(page.text);
      const { approval } = await receive(user, 0);
      const wrong = approval.choices?.find((choice) => choice !== number) as number;
      expect((await user.device.decide(approval.id, wrong, approval.nonce).expect(200)).body).toEqual({ result: 'rejected' });
      const denied = await browser
        .post(path)
        .type('form')
        .send(Object.fromEntries(hiddenInputs(page.text)));
      expect(denied.status).toBe(403);
    });
  });
});
