/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked by the assertions */
import { randomBytes } from 'node:crypto';
import { jwtVerify } from 'jose';
import { Browser, BrowserContext, chromium } from 'playwright-core';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { CallbackServer, chromiumAvailability, CHROMIUM_PATH, screenshotIfAsked, startCallbackServer } from './browser';
import { FakePhoneGatewayProcess, startFakePhoneGateway } from './fake-phone-gateway-process';
import { basic, cleanEnv, freePort, requireBundles, RunningApi, runCli, startApi } from './processes';

/**
 * "Send a code by SMS" on the access page, as a user meets it: the built API with the service-wide
 * SMS gateway pointing at a loopback fake provider, and Debian's Chromium pressing the button, reading
 * nothing but the page, typing the code the provider received. With SCREENSHOT_DIR set, the page
 * after the press is saved as access-page-sms.png.
 */

const PHONE = { width: 420, height: 860 };
const STEP_TIMEOUT_MS = 30_000;

const chromiumState = chromiumAvailability();
if (!chromiumState.available) console.warn(chromiumState.message);
const describeInBrowser = chromiumState.available || chromiumState.mustFail ? describe : describe.skip;

describeInBrowser('the access page sends a code by SMS, in headless Chromium', () => {
  let api: RunningApi;
  let dropDatabase: (() => Promise<void>) | undefined;
  let gateway: FakePhoneGatewayProcess;
  let callback: CallbackServer;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let accountAuth: string;
  let resource: { id: string; apiKey: string; apiSecret: string };

  async function accountApi(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { authorization: accountAuth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    expect({ path, ok: response.status < 300, success: json.success }).toEqual({ path, ok: true, success: true });
    return json.model;
  }

  /** A user whose only second factor is a phone (the v2 phone route, as an administrator adds it). */
  async function userWithPhone(): Promise<string> {
    const identity = `sms-${randomBytes(4).toString('hex')}`;
    const user = await accountApi('POST', '/users', { Identity: identity });
    await accountApi('POST', `/v2/users/${user.id}/phone`, { PhoneNumber: '+79991234512' });
    return identity;
  }

  async function signInRequest(identity: string): Promise<{ id: string; url: string }> {
    const response = await fetch(`${api.baseUrl}/access/requests`, {
      method: 'POST',
      headers: { authorization: basic(resource.apiKey, resource.apiSecret), 'content-type': 'application/json' },
      body: JSON.stringify({ identity, language: 'en', callback: { action: `${callback.origin}/callback`, target: '_self' } }),
    });
    return ((await response.json()) as any).model;
  }

  /** The last message the fake provider took (the template posts JSON). */
  const lastSms = async (): Promise<{ to?: string; text?: string }> => JSON.parse((await gateway.requests()).at(-1)?.body ?? '{}');

  beforeAll(async () => {
    if (!chromiumState.available) throw new Error(chromiumState.message);
    requireBundles();
    gateway = await startFakePhoneGateway();
    const database = await createEmptyDatabase();
    dropDatabase = database.drop;
    const port = await freePort();
    const env = cleanEnv({
      DATABASE_URL: database.url,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMS_GATEWAY: JSON.stringify({
        url: `${gateway.url}/send`,
        method: 'POST',
        bodyFormat: 'json',
        body: { to: '{phone}', text: '{text}' },
        successContains: '"status":"queued"',
      }),
    });
    api = await startApi(env);
    const created = runCli(['account', 'create', '--name', 'Browser', '--owner-email', 'o@sms.test', '--enable-api', '--json'], env);
    expect(created.stderr).toBe('');
    const account = JSON.parse(created.stdout).api as { key: string; secret: string };
    accountAuth = basic(account.key, account.secret);
    resource = await accountApi('POST', '/resources', { name: 'Intranet' });
    callback = await startCallbackServer();
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'], timeout: STEP_TIMEOUT_MS });
    context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, locale: 'en-US' });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
  });

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await api?.stop();
    await gateway?.stop();
    await dropDatabase?.();
  });

  it('press "Send a code by SMS", read the code from the provider, type it: the page returns a verifiable token to the client', async () => {
    const identity = await userWithPhone();
    const request = await signInRequest(identity);
    const page = await context.newPage();
    const before = (await gateway.requests()).length;
    await page.goto(request.url, { waitUntil: 'load' });
    // nothing is sent by opening the page
    await expect(gateway.requests()).resolves.toHaveLength(before);

    await page.getByRole('button', { name: 'Send a code by SMS' }).click();
    await expect(page.locator('#phone-sent').innerText()).resolves.toBe('The code was sent by SMS to +7 ••• •• 12.');
    const sms = await lastSms();
    expect(sms.to).toBe('+79991234512');
    const code = /(\d{6})/.exec(sms.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    await screenshotIfAsked(page, 'access-page-sms.png');

    await page.locator('#code').fill(code);
    const posted = callback.nextPost(STEP_TIMEOUT_MS);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    const token = (await posted).fields.get('accessToken') ?? '';
    const { payload } = await jwtVerify(token, new TextEncoder().encode(resource.apiSecret));
    expect(payload).toMatchObject({ sub: identity, jti: request.id, amr: ['otp'] });
    // the person lands on the client's site; closing the page while that navigation is still under
    // way can hang Chromium's close
    await page.waitForURL(`${callback.origin}/callback`);
    await expect(page.locator('#client').innerText()).resolves.toBe('Signed in at the client site');
    await page.close();
  });

  it("the recovery code's field takes letters and separators, and Chromium applies its pattern (an invalid pattern would admit anything)", async () => {
    const identity = await userWithPhone();
    const request = await signInRequest(identity);
    const page = await context.newPage();
    await page.goto(request.url, { waitUntil: 'load' });
    await page.getByText('Lost your phone? Use a recovery code').click();
    const field = page.locator('#standby-code');
    const validity = async (value: string) => {
      await field.fill(value);
      return field.evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid);
    };
    await expect(validity('abcd-efgh-jkmn')).resolves.toBe(true);
    await expect(validity('ABCD EFGH JKMN')).resolves.toBe(true);
    await expect(validity('123456')).resolves.toBe(false);
    await expect(validity('abcd-efgh-jkmn-p')).resolves.toBe(false);
    await page.close();
  });

  it('a provider that fails: the page says so at once, shows nothing of its answer, and the next press works', async () => {
    const identity = await userWithPhone();
    const request = await signInRequest(identity);
    const page = await context.newPage();
    await page.goto(request.url, { waitUntil: 'load' });
    await gateway.setMode('fail');
    await page.getByRole('button', { name: 'Send a code by SMS' }).click();
    await expect(page.locator('#phone-error').innerText()).resolves.toBe(
      'Could not send the code by SMS. Try again later or use another way to sign in.',
    );
    // the provider's answer body (with its fake key) is not on the page
    await expect(page.content()).resolves.not.toContain('fake-provider-key');
    await gateway.setMode('ok');
    await page.getByRole('button', { name: 'Send a code by SMS' }).click();
    await expect(page.locator('#phone-sent').innerText()).resolves.toBe('The code was sent by SMS to +7 ••• •• 12.');
    await page.close();
  });
});
