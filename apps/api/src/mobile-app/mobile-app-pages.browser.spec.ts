import { AddressInfo } from 'node:net';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { Browser, Page } from 'playwright-core';
import { hiddenInputs } from '../../test/clients/client-kit';
import { FakePushService } from '../../test/testing/fake-push-service';
import { BROWSER_STEP_TIMEOUT_MS, describeInBrowser, launchChromium, screenshotIfAsked } from '../../test/testing/in-browser';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { TestDevice } from '../../test/testing/test-device';

const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');

/**
 * The offer's script in a real browser: the page polls its check, and once a phone (the test's
 * device) enrolled with the page's token, the access page loads itself again and shows the number
 * to pick; the my-factors page posts its list, which names the new device.
 */
describeInBrowser("the app offer's browser test")('the Twofold Authenticator offer in Chromium', () => {
  let t: TestApp;
  let push: FakePushService;
  let baseUrl: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    push = await FakePushService.start();
    t = await startTestApp({ webPushLoopbackHttp: true });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 420, height: 860 }, locale: 'en-US' });
    context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await push?.close();
  });

  const tokenOnPage = async () => {
    const href = (await page.locator('[data-testid="mobile-app-link"]').getAttribute('href')) as string;
    expect(href).toMatch(/^http:\/\/twofold\.test\/access\/app\/#enroll=[A-Za-z0-9_-]{43}$/);
    return href.slice(href.indexOf('#enroll=') + '#enroll='.length);
  };

  it('the access page notices the enrollment and asks for the approval with its number', async () => {
    const { account } = await t.newAccount();
    const site = await t.newResource(account.id, 'Intranet');
    const created = await t
      .as(site)
      .post('/access/requests')
      .send({ identity: 'browser.newcomer', callback: { action: 'https://intranet.example/mfa', target: '_self' } })
      .expect(200);
    await page.goto(`${baseUrl}${new URL(created.body.model.url).pathname}`);
    await page.locator('#mobile-app svg').waitFor();
    await screenshotIfAsked(page, 'access-page-app-offer.png');
    const device = new TestDevice(t);
    const subscription = push.subscribe();
    expect((await device.enroll(await tokenOnPage(), subscription)).status).toBe(200);
    await page.locator('#approval-number').waitFor();
    const number = Number(await page.locator('#approval-number strong').textContent());
    await push.nextPush(subscription);
    const [pending] = (await device.approvals().expect(200)).body.approvals;
    expect(pending.choices).toContain(number);
  });

  it('the my-factors page posts its list once the app enrolled: the device is listed', async () => {
    const { account } = await t.newAccount();
    const portal = await t.newResource(account.id, 'Portal');
    const user = await newUser(t.db, account.id, 'browser.mine', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, account.id, user.id, { kind: 'TotpToken', key: KEY, name: 'Key fob', now: t.clock.now() });
    const code = () => generateTotp({ secret: KEY, time: t.clock.now().getTime() });
    const request = await t
      .as(portal)
      .post('/access/requests')
      .send({ identity: 'browser.mine', callback: { action: 'https://sspr.corp.example/cb', target: '_self' } });
    const signIn = t.browser();
    const path = new URL(request.body.model.url).pathname;
    const prompt = await signIn.get(path);
    t.clock.advance(30_000);
    const granted = await signIn
      .post(path)
      .type('form')
      .send({ formToken: hiddenInputs(prompt.text).get('formToken'), code: code() });
    const link = await t
      .http()
      .post('/self-service/create-enrollment-request')
      .set('Authorization', `Bearer ${hiddenInputs(granted.text).get('accessToken')}`);

    await page.goto(`${baseUrl}${new URL(link.body.model.url).pathname}`);
    t.clock.advance(30_000);
    await page.fill('#code', code());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: 'Add the Twofold Authenticator app' }).click();
    await page.locator('#mobile-app svg').waitFor();
    expect((await new TestDevice(t).enroll(await tokenOnPage(), null, 'Pixel 9')).status).toBe(200);
    await page.locator('[data-testid="factor-label"]', { hasText: 'Pixel 9' }).waitFor();
    expect(await page.locator('[data-testid="factor-label"]').allTextContents()).toEqual(expect.arrayContaining(['Key fob', 'Pixel 9']));
  });
});
