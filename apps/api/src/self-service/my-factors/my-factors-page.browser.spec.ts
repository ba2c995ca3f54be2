import { AddressInfo } from 'node:net';
import { generateTotp, parseBase32Key } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { Browser, Page } from 'playwright-core';
import { hiddenInputs } from '../../../test/clients/client-kit';
import { BROWSER_STEP_TIMEOUT_MS, describeInBrowser, launchChromium, screenshotIfAsked } from '../../../test/testing/in-browser';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');

/**
 * The "my factors" page in a real browser: the user confirms a code of the factor they have, adds an
 * authenticator app with a real TOTP code of the key the page shows, removes the old factor, and
 * cannot remove the last one.
 */
describeInBrowser('the "my factors" browser test')('self-service: the "my factors" page in Chromium', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 420, height: 860 }, locale: 'en-US' });
    context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  const code = (key: Buffer = KEY) => generateTotp({ secret: key, time: t.clock.now().getTime() });
  const labels = () => page.locator('[data-testid="factor-label"]').allTextContents();

  it('adds an authenticator app with a real code, removes the old factor, and keeps the last one', async () => {
    const { account } = await t.newAccount();
    const portal = await t.newResource(account.id, 'Portal');
    const user = await newUser(t.db, account.id, 'jane', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, account.id, user.id, { kind: 'TotpToken', key: KEY, name: 'Key fob', now: t.clock.now() });
    // the portal's sign-in, then "configure 2FA" with the token as Bearer
    const request = await t
      .as(portal)
      .post('/access/requests')
      .send({ identity: 'jane', callback: { action: 'https://sspr.corp.example/cb', target: '_self' } });
    const signInPath = new URL(request.body.model.url).pathname;
    const signIn = t.browser();
    const prompt = await signIn.get(signInPath);
    const granted = await signIn
      .post(signInPath)
      .type('form')
      .send({ formToken: hiddenInputs(prompt.text).get('formToken'), code: code() });
    const token = hiddenInputs(granted.text).get('accessToken') as string;
    const link = await t.http().post('/self-service/create-enrollment-request').set('Authorization', `Bearer ${token}`);
    const path = new URL(link.body.model.url).pathname;

    await page.goto(`${baseUrl}${path}`);
    expect(await page.locator('h1').textContent()).toBe('Your sign-in methods');
    expect(await labels()).toEqual(['Key fob']);
    // nothing can change before a code of the factor the user has
    expect(await page.locator('button', { hasText: 'Add an authenticator app' }).count()).toBe(0);

    t.clock.advance(30_000);
    await page.fill('#code', code());
    await page.click('button:has-text("Confirm")');
    await page.waitForSelector('text=Confirmed.');

    await page.click('button:has-text("Add an authenticator app")');
    const secret = (await page.locator('[data-testid="secret"]').textContent()) as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.fill('#code', code(parseBase32Key(secret)));
    await page.click('.code-step button[type="submit"]');
    await page.waitForSelector('text=The authenticator app was added.');
    expect(await labels()).toHaveLength(2);
    await screenshotIfAsked(page, 'my-factors-page.png');

    // remove the key fob, the first in the list
    await page.locator('li[data-testid="factor"]').filter({ hasText: 'Key fob' }).locator('button.danger').click();
    await page.waitForSelector('text=The sign-in method was removed.');
    expect(await labels()).toHaveLength(1);
    // the last one offers no removal
    expect(await page.locator('button.danger').count()).toBe(0);
    expect(await page.locator('text=Your only sign-in method cannot be removed.').count()).toBeGreaterThan(0);

    const kinds = await t.database.dataSource.query(`SELECT kind FROM authenticators WHERE user_id = $1`, [user.id]);
    expect(kinds).toEqual([{ kind: 'Totp' }]);
  });
});
