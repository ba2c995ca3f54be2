import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { hiddenInputs } from '../../test/clients/client-kit';
import { FakePushService } from '../../test/testing/fake-push-service';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { TestDevice } from '../../test/testing/test-device';
import { EnrollmentLinksService } from '../enrollment/enrollment-links.service';

const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');
const APP_LINK =
  /id="mobile-app-link" data-testid="mobile-app-link" href="http:\/\/twofold\.test\/access\/app\/#enroll=([A-Za-z0-9_-]{43})"/;

/**
 * The pages that enroll a factor offer the Twofold Authenticator: a QR code and a link carrying a
 * single-use token of that page (`<ACCESS_URL>/app/#enroll=<token>`), and a check the page's script
 * asks until the app enrolled with it. Driven here as a browser without scripts would, with the
 * device protocol of the app (a node:crypto P-256 key).
 */
describe('the Twofold Authenticator offered on the enrolling pages', () => {
  let t: TestApp;
  let push: FakePushService;
  let accountId: AccountId;
  let authorization: string;
  let site: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    push = await FakePushService.start();
    t = await startTestApp({ webPushLoopbackHttp: true });
    const account = await t.newAccount();
    accountId = account.account.id;
    authorization = account.authorization;
    site = await t.newResource(accountId, 'Intranet');
  });
  afterAll(async () => {
    await t?.close();
    await push?.close();
  });

  async function accessPage(identity: string): Promise<string> {
    const created = await t
      .as(site)
      .post('/access/requests')
      .send({ identity, callback: { action: 'https://intranet.example/mfa', target: '_self' } })
      .expect(200);
    return new URL(created.body.model.url).pathname;
  }
  const tokenOn = (page: string) => APP_LINK.exec(page)?.[1] as string;
  /** the section's check, resolved against the page's path as the browser does */
  const stateUrlOn = (path: string, page: string) => {
    const statePath = /id="mobile-app" data-state="([^"]+)"/.exec(page)?.[1].replace(/&amp;/g, '&') as string;
    return `${path.slice(0, path.lastIndexOf('/') + 1)}${statePath}`;
  };

  it("a newcomer's first visit offers the app; the token enrolls a device once, the check says so, and the page then asks for the approval", async () => {
    const path = await accessPage('app.newcomer');
    const browser = t.browser();
    const page = await browser.get(path).expect(200);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    const token = tokenOn(page.text);
    expect(token).toBeDefined();
    // the QR code encodes the same link; without scripts the link and the code are all there is
    expect(page.text).toMatch(/<section id="mobile-app"[^>]*data-continue="reload">[\s\S]*<svg/);
    const stateUrl = stateUrlOn(path, page.text);
    expect(stateUrl).toMatch(/\/mobile-app\?token=[0-9a-f-]{36}$/);
    expect((await browser.get(stateUrl).expect(200)).body).toEqual({ enrolled: false });

    const device = new TestDevice(t);
    const subscription = push.subscribe();
    expect((await device.enroll(token, subscription)).status).toBe(200);
    expect((await browser.get(stateUrl).expect(200)).body).toEqual({ enrolled: true });
    // single use: a second phone with the same link gets nothing
    expect((await new TestDevice(t).enroll(token)).status).toBe(410);

    // the page loads again (what its script does): the user now has the app, so the approval is asked
    const approval = await browser.get(path).expect(200);
    expect(approval.text).toContain('id="approval-number"');
    const pushed = await push.nextPush(subscription);
    expect(pushed.body.length).toBeGreaterThan(0);
    const [pending] = (await device.approvals().expect(200)).body.approvals;
    expect(pending.choices).toContain(Number(/id="approval-number"[^>]*><strong>(\d\d)<\/strong>/.exec(approval.text)?.[1]));
  });

  it("a reload shows a new token; a token of another user, or of nobody, is never reported as this page's", async () => {
    const path = await accessPage('app.reload');
    const browser = t.browser();
    const first = await browser.get(path).expect(200);
    const second = await browser.get(path).expect(200);
    expect(tokenOn(first.text)).not.toBe(tokenOn(second.text));

    // another user's page and its token: enrolled, but not the user of this page
    const otherPath = await accessPage('app.other');
    const other = await t.browser().get(otherPath).expect(200);
    expect((await new TestDevice(t).enroll(tokenOn(other.text))).status).toBe(200);
    const otherTokenId = /\?token=([0-9a-f-]{36})/.exec(stateUrlOn(otherPath, other.text))?.[1] as string;
    const mine = stateUrlOn(path, second.text);
    expect((await browser.get(`${mine.split('?')[0]}?token=${otherTokenId}`).expect(200)).body).toEqual({ enrolled: false });
    expect((await browser.get(`${mine.split('?')[0]}?token=nonsense`).expect(200)).body).toEqual({ enrolled: false });
    expect((await t.http().get('/access/00000000-0000-4000-8000-000000000000/mobile-app?token=x')).status).toBe(404);
  });

  it('the token expires with the page', async () => {
    const path = await accessPage('app.late');
    const page = await t.browser().get(path).expect(200);
    t.clock.advance(15 * 60_000 + 1_000);
    expect((await new TestDevice(t).enroll(tokenOn(page.text))).status).toBe(410);
  });

  it('the enrollment page offers the app beside the code app; its check reports the enrollment', async () => {
    const user = await newUser(t.db, accountId, 'app.enroll', { now: t.clock.now() });
    const issued = await t.app.get(EnrollmentLinksService).issue(accountId, { userId: user.id }, { ttlMinutes: 60, email: null });
    const path = new URL(issued.url).pathname;
    const page = await t.http().get(path).expect(200);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(page.text).toContain('data-testid="secret"');
    const stateUrl = stateUrlOn(path, page.text);
    expect((await t.http().get(stateUrl)).body).toEqual({ enrolled: false });
    const device = new TestDevice(t);
    expect((await device.enroll(tokenOn(page.text), null, 'Work phone')).status).toBe(200);
    expect((await t.http().get(stateUrl)).body).toEqual({ enrolled: true });
    const [row] = await t.database.dataSource.query(`SELECT kind, name FROM authenticators WHERE user_id = $1`, [user.id]);
    expect(row).toEqual({ kind: 'MobileApp', name: 'Work phone' });
    expect((await t.http().get(`/access/enroll/${'x'.repeat(43)}/mobile-app?token=x`)).status).toBe(404);
  });

  it("the enrollment page's token lives as long as the link, never longer", async () => {
    const user = await newUser(t.db, accountId, 'app.enroll.late', { now: t.clock.now() });
    const issued = await t.app.get(EnrollmentLinksService).issue(accountId, { userId: user.id }, { ttlMinutes: 60, email: null });
    const page = await t.http().get(new URL(issued.url).pathname).expect(200);
    t.clock.advance(60 * 60_000 + 1_000);
    expect((await new TestDevice(t).enroll(tokenOn(page.text))).status).toBe(410);
  });

  it('counts tokens issued, used and presented invalid, devices enrolled and removed, and pushes by outcome at /metrics', async () => {
    const scrape = async () => (await t.http().get('/metrics').expect(200)).text;
    const value = (text: string, series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };
    const series = [
      'twofold_mobile_app_enrollment_tokens_total{event="issued"}',
      'twofold_mobile_app_enrollment_tokens_total{event="used"}',
      'twofold_mobile_app_enrollment_tokens_total{event="invalid"}',
      'twofold_mobile_app_devices_total{event="enrolled"}',
      'twofold_mobile_app_devices_total{event="removed"}',
      'twofold_web_pushes_total{outcome="delivered"}',
      'twofold_web_pushes_total{outcome="retried"}',
      'twofold_web_pushes_total{outcome="unreachable"}',
    ];
    const read = async () => {
      const text = await scrape();
      return Object.fromEntries(series.map((name) => [name, value(text, name)]));
    };
    const before = await read();

    const user = await newUser(t.db, accountId, 'app.metrics', { now: t.clock.now() });
    const page = await t
      .browser()
      .get(await accessPage('app.metrics'))
      .expect(200);
    const token = tokenOn(page.text);
    const device = new TestDevice(t);
    const subscription = push.subscribe();
    expect((await device.enroll(token, subscription)).status).toBe(200);
    expect((await new TestDevice(t).enroll(token)).status).toBe(410);
    // one push retried once then delivered, one failing on every attempt (4: three retries)
    push.answerNext(subscription, 503);
    await t
      .browser()
      .get(await accessPage('app.metrics'))
      .expect(200);
    await push.nextPush(subscription);
    push.answer(subscription, 503);
    await t.browser().get(await accessPage('app.metrics'));
    await t.as(authorization).delete(`/users/${user.id}/authenticators/mobileapp/${device.deviceId}`).expect(200);

    const after = await read();
    const delta = Object.fromEntries(series.map((name) => [name, after[name] - before[name]]));
    expect(delta).toEqual({
      'twofold_mobile_app_enrollment_tokens_total{event="issued"}': 1,
      'twofold_mobile_app_enrollment_tokens_total{event="used"}': 1,
      'twofold_mobile_app_enrollment_tokens_total{event="invalid"}': 1,
      'twofold_mobile_app_devices_total{event="enrolled"}': 1,
      'twofold_mobile_app_devices_total{event="removed"}': 1,
      'twofold_web_pushes_total{outcome="delivered"}': 1,
      'twofold_web_pushes_total{outcome="retried"}': 4,
      'twofold_web_pushes_total{outcome="unreachable"}': 1,
    });
    expect(await scrape()).not.toContain(token);
  });

  describe('the "my factors" page', () => {
    const code = () => generateTotp({ secret: KEY, time: t.clock.now().getTime() });

    /** A user with a TOTP key fob, signed in at the portal: the path of their "my factors" page. */
    async function myFactors(identity: string): Promise<{ path: string; userId: string }> {
      const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
      await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, name: 'Key fob', now: t.clock.now() });
      const signInPath = await accessPage(identity);
      const signIn = t.browser();
      const prompt = await signIn.get(signInPath);
      t.clock.advance(30_000);
      const granted = await signIn
        .post(signInPath)
        .type('form')
        .send({ formToken: hiddenInputs(prompt.text).get('formToken'), code: code() });
      const accessToken = hiddenInputs(granted.text).get('accessToken') as string;
      const link = await t.http().post('/self-service/create-enrollment-request').set('Authorization', `Bearer ${accessToken}`);
      return { path: new URL(link.body.model.url).pathname, userId: user.id };
    }

    it('shows the QR code only after a fresh code; the check answers only its browser; the list then names the device', async () => {
      const { path } = await myFactors('app.mine');
      const browser = t.browser();
      const list = await browser.get(path).expect(200);
      expect(list.text).not.toContain('value="mobile-app-start"');
      const early = await browser.post(path).type('form').send({ action: 'mobile-app-start' });
      expect(early.text).toContain('Confirm it is you first.');
      expect(early.text).not.toContain('mobile-app-link');
      const { count } = (await t.database.dataSource.query(`SELECT count(*)::int AS count FROM mobile_app_enrollment_tokens`))[0];

      t.clock.advance(30_000);
      const checked = await browser.post(path).type('form').send({ action: 'check', code: code() });
      expect(checked.text).toContain('value="mobile-app-start"');
      // confirming made no token: only the page that shows one does
      expect((await t.database.dataSource.query(`SELECT count(*)::int AS count FROM mobile_app_enrollment_tokens`))[0].count).toBe(count);
      const offer = await browser.post(path).type('form').send({ action: 'mobile-app-start' }).expect(200);
      expect(offer.headers['content-security-policy']).toContain("connect-src 'self'");
      expect(offer.text).toContain('data-continue="submit"');
      expect(offer.text).toContain('id="mobile-app-continue"');
      const stateUrl = stateUrlOn(path, offer.text);
      expect((await browser.get(stateUrl).expect(200)).body).toEqual({ enrolled: false });
      expect((await t.browser().get(stateUrl)).status).toBe(404);

      const device = new TestDevice(t);
      expect((await device.enroll(tokenOn(offer.text), null, 'Pixel')).status).toBe(200);
      expect((await browser.get(stateUrl).expect(200)).body).toEqual({ enrolled: true });
      const after = await browser.post(path).type('form').send({ action: 'list' });
      expect(
        [...after.text.matchAll(/data-kind="([a-z]+)"><span class="muted">[^<]*<\/span> <strong data-testid="factor-label">([^<]*)</g)].map(
          (m) => [m[1], m[2]],
        ),
      ).toEqual(
        expect.arrayContaining([
          ['totp', 'Key fob'],
          ['mobileapp', 'Pixel'],
        ]),
      );
    });

    it('renames and removes the device, journaled; the API removal is journaled too; the last factor stays', async () => {
      const { path, userId } = await myFactors('app.manage');
      const browser = t.browser();
      await browser.get(path);
      t.clock.advance(30_000);
      await browser.post(path).type('form').send({ action: 'check', code: code() });
      const offer = await browser.post(path).type('form').send({ action: 'mobile-app-start' });
      const phone = new TestDevice(t);
      expect((await phone.enroll(tokenOn(offer.text))).status).toBe(200);
      const deviceId = phone.deviceId as string;

      const renamed = await browser.post(path).type('form').send({ action: 'rename', id: deviceId, name: "Anna's <phone>" });
      expect(renamed.text).toContain('Anna&#39;s &lt;phone&gt;');
      const removed = await browser.post(path).type('form').send({ action: 'remove', id: deviceId });
      expect(removed.text).not.toContain('&lt;phone&gt;');
      const entries = await t.database.dataSource.query(
        `SELECT object, action, additional_fields FROM journal_events WHERE account_id = $1 AND additional_fields->>'AuthenticatorId' = $2 ORDER BY id`,
        [accountId, deviceId],
      );
      expect(entries.map((e: { object: string; action: string }) => `${e.object} ${e.action}`)).toEqual(
        expect.arrayContaining(['Authenticator Bind', 'User Update', 'Authenticator Disable']),
      );
      expect(entries.find((e: { action: string }) => e.action === 'Disable').additional_fields).toMatchObject({
        AuthenticatorKind: 'MobileApp',
        Source: 'self-service',
      });
      // a removed device is no device: its signed requests are refused
      expect((await phone.approvals()).status).toBe(403);

      // the administrators' API: deleting a device is one call, journaled
      const second = new TestDevice(t);
      const issued = await t.app.get(EnrollmentLinksService).issue(accountId, { userId }, { ttlMinutes: 60, email: null });
      const enrollPage = await t.http().get(new URL(issued.url).pathname);
      expect((await second.enroll(tokenOn(enrollPage.text))).status).toBe(200);
      await t.as(authorization).delete(`/users/${userId}/authenticators/mobileapp/${second.deviceId}`).expect(200);
      const [apiEntry] = await t.database.dataSource.query(
        `SELECT object, action FROM journal_events WHERE account_id = $1 AND object = 'Authenticator' AND action = 'Disable' AND additional_fields::text LIKE $2`,
        [accountId, `%${second.deviceId}%`],
      );
      expect(apiEntry).toEqual({ object: 'Authenticator', action: 'Disable' });
      expect((await second.approvals()).status).toBe(403);
    });
  });
});

describe('MOBILE_APP_OFFER=false', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ mobileAppOffer: false });
  });
  afterAll(() => t?.close());

  it('the pages offer no app: no section, no token, no check to connect to', async () => {
    const { account } = await t.newAccount();
    const site = await t.newResource(account.id, 'Intranet');
    const created = await t
      .as(site)
      .post('/access/requests')
      .send({ identity: 'no.app', callback: { action: 'https://intranet.example/mfa', target: '_self' } })
      .expect(200);
    const page = await t.browser().get(new URL(created.body.model.url).pathname).expect(200);
    expect(page.text).toContain('data-testid="secret"');
    expect(page.text).not.toContain('id="mobile-app"');
    expect(page.headers['content-security-policy']).not.toContain('connect-src');
    const user = await newUser(t.db, account.id, 'no.app.link', { now: t.clock.now() });
    const issued = await t.app.get(EnrollmentLinksService).issue(account.id, { userId: user.id }, { ttlMinutes: 60, email: null });
    expect((await t.http().get(new URL(issued.url).pathname).expect(200)).text).not.toContain('id="mobile-app"');
    expect(await t.database.dataSource.query(`SELECT count(*)::int AS n FROM mobile_app_enrollment_tokens`)).toEqual([{ n: 0 }]);
  });
});
