import { ApprovalFactor } from '@twofold/domain';
import { ApprovalsRepository } from '@twofold/persistence';
import { newUser } from '@twofold/persistence/testing';
import { generateTotp, parseBase32Key } from '@twofold/otp';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';
import { TestDevice } from '../../test/testing/test-device';
import { ApprovalsService, OpenedApproval } from '../approvals/approvals.service';
import { approvalFixture, ApprovalFixture } from '../approvals/approvals.testing';
import { MOBILE_APP_ENROLLMENT_TTL_MINUTES, MobileAppService } from './mobile-app.service';

const NOT_SIGNED = 'The request is not signed by a registered device.';

/** The device protocol of the authenticator app on the real application: enrollment, signed requests, signed decisions. */
describe('the authenticator app: enrollment and signed decisions', () => {
  let t: TestApp;
  let service: MobileAppService;
  let approvalsService: ApprovalsService;
  let approvals: ApprovalsRepository;
  let authorization: string;
  let accountId: ApprovalFixture['accountId'];

  beforeAll(async () => {
    t = await startTestApp();
    service = t.app.get(MobileAppService);
    approvalsService = t.app.get(ApprovalsService);
    approvals = t.app.get(ApprovalsRepository);
    const account = await t.newAccount({ name: 'Acme Bank' });
    authorization = account.authorization;
    accountId = account.account.id;
  });
  afterAll(() => t?.close());
  beforeEach(() => t.clock.set(TEST_NOW));

  /** a user with an enrolled device, and a way to open approvals of their sign-ins asked of that device */
  async function enrolledUser() {
    const f = await approvalFixture(t.db, t.cipher, { accountId, kind: 'MobileApp', now: TEST_NOW });
    const device = new TestDevice(t);
    const { token } = await service.createEnrollmentToken(accountId, f.userId);
    expect((await device.enroll(token)).status).toBe(200);
    const factor: ApprovalFactor = { id: device.deviceId as string, kind: 'MobileApp', createdAt: TEST_NOW };
    const open = async (channel: 'page' | 'ra' = 'page'): Promise<OpenedApproval> => {
      const opened = await approvalsService.open(await f.subject(channel), factor, { withNumber: channel === 'page' });
      if (opened.kind !== 'opened') throw new Error('not opened');
      return opened.approval;
    };
    return { f, device, open };
  }
  const statusOf = async (approval: OpenedApproval) => (await approvals.findById(approval.accountId, approval.id))?.status;
  async function listedAll(device: TestDevice) {
    const res = await device.approvals().expect(200);
    return res.body.approvals as { id: string; nonce: string; choices: number[] | null }[];
  }
  async function listed(device: TestDevice, approvalId: string) {
    const found = (await listedAll(device)).find((a) => a.id === approvalId);
    if (!found) throw new Error('the approval is not listed');
    return { ...found, choices: found.choices ?? [] };
  }

  describe('enrollment', () => {
    it('exchanges a token for a MobileApp authenticator of its user holding the device key, journaled without key or token', async () => {
      const user = await newUser(t.db, accountId, 'enrol-alice', { now: TEST_NOW });
      const { token } = await service.createEnrollmentToken(accountId, user.id);
      const device = new TestDevice(t);
      const res = await device.enroll(token, null, 'Pixel 8');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        deviceId: expect.any(String),
        accountName: 'Acme Bank',
        identity: 'enrol-alice',
        totp: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/), algorithm: 'SHA1', digits: 6, period: 30 },
      });
      const listedFactors = await t.as(authorization).get(`/users/${user.id}/authenticators`).expect(200);
      expect(listedFactors.body.model.MobileApp).toEqual([expect.objectContaining({ id: res.body.deviceId, name: 'Pixel 8' })]);
      const rows: { action: string; additional_fields: Record<string, string> }[] = await t.db
        .manager()
        .query(
          `SELECT action, additional_fields FROM journal_events WHERE account_id = $1 AND object = 'Authenticator' AND subject = 'enrol-alice'`,
          [accountId],
        );
      expect(rows).toEqual([expect.objectContaining({ action: 'Bind' })]);
      expect(rows[0].additional_fields).toMatchObject({ AuthenticatorId: res.body.deviceId, '2FAMethod': 'MobileApp' });
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(JSON.stringify(rows)).not.toContain(String(device.jwk()['x']));
      expect(JSON.stringify(rows)).not.toContain(res.body.totp.secret);
    });

    it("the app's TOTP secret, given once at enrollment, makes codes the service accepts until the device is deleted", async () => {
      const user = await newUser(t.db, accountId, 'enrol-totp', { now: TEST_NOW });
      const resource = await t.newResource(accountId, 'VPN for the app');
      const { token } = await service.createEnrollmentToken(accountId, user.id);
      const device = new TestDevice(t);
      const enrolled = (await device.enroll(token)).body as { deviceId: string; totp: { secret: string } };
      const secret = parseBase32Key(enrolled.totp.secret);
      const codeAt = (at: Date) => generateTotp({ secret, time: at.getTime() });
      const md = (passCode: string) => t.as(resource.authorization).post('/access/requests/md').send({ identity: 'enrol-totp', passCode });
      expect((await md(codeAt(t.clock.now()))).body.model).toMatchObject({ status: 'Granted' });
      // nothing else hands the secret out: the list of approvals does not carry it
      expect(JSON.stringify((await device.approvals().expect(200)).body)).not.toContain(enrolled.totp.secret);
      // a lost phone is one delete: its codes go with it
      await t.as(authorization).delete(`/users/${user.id}/authenticators/mobileapp/${enrolled.deviceId}`).expect(200);
      t.clock.advance(60_000);
      expect((await md(codeAt(t.clock.now()))).body.model).toMatchObject({ status: 'Denied' });
    });

    it('a token enrolls once: a second device with it (a stolen token after use) gets nothing', async () => {
      const user = await newUser(t.db, accountId, 'enrol-bob', { now: TEST_NOW });
      const { token } = await service.createEnrollmentToken(accountId, user.id);
      expect((await new TestDevice(t).enroll(token)).status).toBe(200);
      const thief = await new TestDevice(t).enroll(token);
      expect(thief.status).toBe(410);
      expect(thief.body.message).toBe('This enrollment link is no longer valid.');
      const listedFactors = await t.as(authorization).get(`/users/${user.id}/authenticators`).expect(200);
      expect(listedFactors.body.model.MobileApp).toHaveLength(1);
    });

    it('an expired token or an unknown one enrolls nothing', async () => {
      const user = await newUser(t.db, accountId, 'enrol-carol', { now: TEST_NOW });
      const { token } = await service.createEnrollmentToken(accountId, user.id);
      t.clock.advance(MOBILE_APP_ENROLLMENT_TTL_MINUTES * 60_000);
      expect((await new TestDevice(t).enroll(token)).status).toBe(410);
      expect((await new TestDevice(t).enroll('A'.repeat(43))).status).toBe(410);
      const listedFactors = await t.as(authorization).get(`/users/${user.id}/authenticators`).expect(200);
      expect(listedFactors.body.model.MobileApp ?? []).toHaveLength(0);
    });

    it('the registration must be signed by the key it registers; a refused one does not spend the token', async () => {
      const user = await newUser(t.db, accountId, 'enrol-dave', { now: TEST_NOW });
      const { token } = await service.createEnrollmentToken(accountId, user.id);
      const other = new TestDevice(t);
      const device = new TestDevice(t, { privateKey: other.privateKey, publicKey: new TestDevice(t).publicKey });
      const res = await device.enroll(token);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(NOT_SIGNED);
      expect((await new TestDevice(t).enroll(token)).status).toBe(200);
    });

    it('refuses what is not a P-256 public key', async () => {
      const user = await newUser(t.db, accountId, 'enrol-erin', { now: TEST_NOW });
      const { token } = await service.createEnrollmentToken(accountId, user.id);
      const res = await t
        .http()
        .post('/mobile-app/v1/devices')
        .send({ token, publicKey: { kty: 'EC', crv: 'P-384', x: 'AA', y: 'AA' }, counter: 1, time: 1, signature: 'AA' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('publicKey must be a P-256 public key (JWK or SPKI).');
    });
  });

  describe('decisions', () => {
    it('lists the pending approval with the sign-in and three numbers, and the right number signed by the device approves it', async () => {
      const { f, device, open } = await enrolledUser();
      const approval = await open('page');
      const shown = await listed(device, approval.id);
      expect(shown.choices).toHaveLength(3);
      expect(await listedAll(device)).toEqual([
        {
          id: approval.id,
          nonce: expect.any(String),
          account: 'Acme Bank',
          resource: f.resourceName,
          address: '203.0.113.7',
          at: TEST_NOW.toISOString(),
          expiresAt: approval.expiresAt.toISOString(),
          choices: expect.arrayContaining([approval.number]),
        },
      ]);
      const decided = await device.decide(approval.id, approval.number as number, shown.nonce).expect(200);
      expect(decided.body).toEqual({ result: 'approved' });
      const row = await approvals.findById(accountId, approval.id);
      expect(row).toMatchObject({ status: 'Approved', decidedBy: `mobileapp:${device.deviceId}` });
      expect(row?.decidedFromAddress).toEqual(expect.any(String));
      expect(await listedAll(device)).toEqual([]);
    });

    it('"it wasn\'t me" rejects and is journaled', async () => {
      const { device, open } = await enrolledUser();
      const approval = await open('ra');
      const shown = await listed(device, approval.id);
      expect((await listedAll(device)).find((a) => a.id === approval.id)?.choices).toBeNull();
      expect((await device.decide(approval.id, 'notMe', shown.nonce).expect(200)).body).toEqual({ result: 'rejected' });
      expect(await approvals.findById(accountId, approval.id)).toMatchObject({ status: 'Rejected', rejectReason: 'notMe' });
    });

    it('without a signature, or with a signature that does not hold, nothing changes', async () => {
      const { device, open } = await enrolledUser();
      const approval = await open('ra');
      const shown = await listed(device, approval.id);
      const unsigned = await t
        .http()
        .post('/mobile-app/v1/decisions')
        .send({ deviceId: device.deviceId, approvalId: approval.id, choice: 'approve', nonce: shown.nonce });
      expect(unsigned.status).toBe(400);
      const body = {
        ...device.signed('decision', [approval.id, 'approve', shown.nonce]),
        approvalId: approval.id,
        choice: 'approve',
        nonce: shown.nonce,
      };
      const tampered = await t
        .http()
        .post('/mobile-app/v1/decisions')
        .send({ ...body, choice: 'notMe' });
      expect(tampered.status).toBe(403);
      expect(tampered.body.message).toBe(NOT_SIGNED);
      const garbage = await t
        .http()
        .post('/mobile-app/v1/decisions')
        .send({ ...body, counter: body.counter + 1, signature: 'A'.repeat(86) });
      expect(garbage.status).toBe(403);
      expect(await statusOf(approval)).toBe('Pending');
    });

    it("another device's key cannot decide for this device, and another user's device cannot decide this user's request", async () => {
      const alice = await enrolledUser();
      const mallory = await enrolledUser();
      const approval = await alice.open('ra');
      const shown = await listed(alice.device, approval.id);
      // Mallory's key, claiming Alice's device
      const forged = await alice.device.decide(approval.id, 'approve', shown.nonce, { key: mallory.device.privateKey });
      expect(forged.status).toBe(403);
      // Mallory's own device, naming Alice's approval (with Alice's nonce, or a guess)
      expect((await mallory.device.decide(approval.id, 'approve', shown.nonce).expect(200)).body).toEqual({ result: 'ignored' });
      expect((await listedAll(mallory.device)).map((a) => a.id)).not.toContain(approval.id);
      expect(await statusOf(approval)).toBe('Pending');
    });

    it('a number that was not offered changes nothing; an offered wrong number rejects, and nothing approves after it', async () => {
      const { device, open } = await enrolledUser();
      const approval = await open('page');
      const shown = await listed(device, approval.id);
      const notOffered = [...Array(90).keys()].map((i) => i + 10).find((n) => !shown.choices!.includes(n)) as number;
      expect((await device.decide(approval.id, notOffered, shown.nonce).expect(200)).body).toEqual({ result: 'ignored' });
      expect((await device.decide(approval.id, 'approve', shown.nonce).expect(200)).body).toEqual({ result: 'ignored' });
      expect(await statusOf(approval)).toBe('Pending');
      const wrong = shown.choices!.find((n) => n !== approval.number) as number;
      expect((await device.decide(approval.id, wrong, shown.nonce).expect(200)).body).toEqual({ result: 'rejected' });
      expect(await approvals.findById(accountId, approval.id)).toMatchObject({ status: 'Rejected', rejectReason: 'wrongNumber' });
      expect((await device.decide(approval.id, approval.number as number, shown.nonce).expect(200)).body).toEqual({ result: 'ignored' });
    });

    it('a replayed request (the same counter, or an older one) and a request kept back (its time) are refused', async () => {
      const { device, open } = await enrolledUser();
      const approval = await open('ra');
      const shown = await listed(device, approval.id);
      const body = {
        ...device.signed('decision', [approval.id, 'approve', shown.nonce]),
        approvalId: approval.id,
        choice: 'approve',
        nonce: shown.nonce,
      };
      // the first one is lost on the way (the nonce is wrong for another approval), its copy is sent again
      const older = {
        ...device.signed('decision', [approval.id, 'notMe', shown.nonce], { counter: body.counter - 1 }),
        approvalId: approval.id,
        choice: 'notMe',
        nonce: shown.nonce,
      };
      expect((await t.http().post('/mobile-app/v1/decisions').send(body)).status).toBe(200);
      expect(await statusOf(approval)).toBe('Approved');
      const second = await open('ra');
      const replay = await t.http().post('/mobile-app/v1/decisions').send(body);
      expect(replay.status).toBe(403);
      expect((await t.http().post('/mobile-app/v1/decisions').send(older)).status).toBe(403);
      const late = await device.decide(second.id, 'notMe', (await listed(device, second.id)).nonce, { time: device.time() - 600 });
      expect(late.status).toBe(403);
      expect(await statusOf(second)).toBe('Pending');
    });

    it('after the expiry a decision changes nothing', async () => {
      const { device, open } = await enrolledUser();
      const approval = await open('ra');
      const shown = await listed(device, approval.id);
      t.clock.set(approval.expiresAt);
      expect((await device.decide(approval.id, 'approve', shown.nonce).expect(200)).body).toEqual({ result: 'ignored' });
      expect(await statusOf(approval)).toBe('Pending');
    });

    it('a disabled device is not authenticated; a deleted one is gone, journaled', async () => {
      const { f, device, open } = await enrolledUser();
      const approval = await open('ra');
      const shown = await listed(device, approval.id);
      await t.as(authorization).post(`/users/${f.userId}/authenticators/mobileapp/${device.deviceId}/disable`).expect(200);
      expect((await device.decide(approval.id, 'approve', shown.nonce)).status).toBe(403);
      await t.as(authorization).post(`/users/${f.userId}/authenticators/mobileapp/${device.deviceId}/enable`).expect(200);
      await t.as(authorization).delete(`/users/${f.userId}/authenticators/mobileapp/${device.deviceId}`).expect(200);
      expect((await device.approvals()).status).toBe(403);
      expect(await statusOf(approval)).toBe('Pending');
      const rows: { action: string }[] = await t.db
        .manager()
        .query(
          `SELECT action FROM journal_events WHERE account_id = $1 AND object = 'Authenticator' AND additional_fields->>'AuthenticatorId' = $2 ORDER BY seq`,
          [accountId, device.deviceId],
        );
      expect(rows.map((row) => row.action)).toEqual(['Bind', 'Disable', 'Enable', 'Disable']);
    });
  });

  describe('the push subscription', () => {
    const fresh = () => ({
      endpoint: `https://push.example/send/${Math.random().toString(36).slice(2)}`,
      keys: {
        p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'),
        auth: Buffer.alloc(16, 3).toString('base64url'),
      },
    });
    const stored = async (deviceId: string | null) =>
      (await t.db.manager().query(`SELECT push_endpoint FROM mobile_app_devices WHERE authenticator_id = $1`, [deviceId]))[0]
        ?.push_endpoint;
    const put = (device: TestDevice, subscription: ReturnType<typeof fresh> | null, key?: TestDevice['privateKey']) =>
      t
        .http()
        .put('/mobile-app/v1/subscription')
        .send({
          ...device.signed(
            'subscription',
            subscription ? [subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth] : ['-', '-', '-'],
            { key },
          ),
          ...(subscription ? { subscription } : {}),
        });

    it('the device replaces or removes its subscription with a signed request; another key cannot', async () => {
      const { device } = await enrolledUser();
      const first = fresh();
      await put(device, first).expect(200);
      expect(await stored(device.deviceId)).toBe(first.endpoint);
      const forged = await put(device, fresh(), new TestDevice(t).privateKey);
      expect(forged.status).toBe(403);
      expect(await stored(device.deviceId)).toBe(first.endpoint);
      await put(device, null).expect(200);
      expect(await stored(device.deviceId)).toBeNull();
    });

    it('refuses an endpoint that is not https, and keys that are not a P-256 key and a 16-byte secret', async () => {
      const { device } = await enrolledUser();
      const http = await put(device, { ...fresh(), endpoint: 'http://10.0.0.1/push' });
      expect(http.status).toBe(400);
      expect(http.body.message).toBe('subscription.endpoint must be an https URL.');
      const short = await put(device, { ...fresh(), keys: { ...fresh().keys, auth: 'AAAA' } });
      expect(short.body.message).toBe('subscription.keys.auth must be 16 bytes.');
      expect(await stored(device.deviceId)).toBeNull();
    });
  });

  it('of two copies of one signed decision sent at once, exactly one is taken', async () => {
    const { device, open } = await enrolledUser();
    const approval = await open('ra');
    const shown = await listed(device, approval.id);
    const body = {
      ...device.signed('decision', [approval.id, 'approve', shown.nonce]),
      approvalId: approval.id,
      choice: 'approve',
      nonce: shown.nonce,
    };
    const answers = await Promise.all([1, 2, 3].map(() => t.http().post('/mobile-app/v1/decisions').send(body)));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 403, 403]);
    expect(await statusOf(approval)).toBe('Approved');
  });
});
