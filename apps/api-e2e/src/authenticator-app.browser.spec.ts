/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked by the assertions */
import { randomBytes } from 'node:crypto';
import { Browser, BrowserContext, CDPSession, chromium, Page } from 'playwright-core';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { CallbackServer, chromiumAvailability, CHROMIUM_PATH, screenshotIfAsked, startCallbackServer } from './browser';
import { HttpsPushService, HttpsPushSubscription } from './fake-push-https';
import { basic, cleanEnv, freePort, requireBundles, RunningApi, runCli, startApi } from './processes';

const STEP_TIMEOUT_MS = 30_000;

/** A browser call that has no timeout of its own (evaluate, the DevTools protocol, closing a page), bounded: a hang names its step. */
async function bounded<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const chromiumState = chromiumAvailability();
if (!chromiumState.available) console.warn(chromiumState.message);
const describeInBrowser = chromiumState.available || chromiumState.mustFail ? describe : describe.skip;

/**
 * The Twofold Authenticator (the PWA at $ACCESS_URL/app/) in headless Chromium against the built API.
 * Real: the app's page and service worker as built, its WebCrypto P-256 key and HMAC key (not
 * extractable, in IndexedDB), every signed request of the device protocol, the service's Web Push
 * message (VAPID, aes128gcm) sent over https to a push service, the access page waiting by its poll.
 * Simulated, because headless Chromium has no push service to subscribe with: the subscription
 * (`pushManager.subscribe` answers the fake push service's endpoint and keys, made by the test), and
 * the last hop, from the push service to the browser: the test decrypts the message the service sent
 * and hands it to the service worker with the DevTools protocol (`ServiceWorker.deliverPushMessage`).
 */
describeInBrowser('the authenticator app in headless Chromium: enrollment, push, number matching, offline codes', () => {
  let api: RunningApi;
  let push: HttpsPushService;
  let dropDatabase: (() => Promise<void>) | undefined;
  let callback: CallbackServer;
  let browser: Browser | undefined;
  let accountAuth: string;
  let resourceAuth: string;
  // one phone for the whole file: enrolled by the first test, used by the next ones
  let context: BrowserContext;
  let app: Page;
  let cdp: CDPSession;
  let registrationId: string;
  let subscription: HttpsPushSubscription;
  let identity: string;
  let pushes = 0;

  const post = async (path: string, body: unknown, auth: string) => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as any;
  };

  /**
   * What a newcomer does: the first sign-in's access page (the user has no factor yet) offers the app
   * with a QR code and a link for this same phone, carrying a single-use enrollment token.
   */
  async function appLinkFromAccessPage(): Promise<string> {
    const request = (
      await post('/access/requests', { identity, callback: { action: `${callback.origin}/mfa`, target: '_self' } }, resourceAuth)
    ).model;
    const page = await context.newPage();
    try {
      await page.goto(request.url);
      const href = await page.getByTestId('mobile-app-link').getAttribute('href');
      if (!href) throw new Error('the access page offers no app link');
      return href;
    } finally {
      await page.close();
    }
  }

  /** A sign-in on the access page in another tab: the page, and the number it shows. */
  async function signIn(): Promise<{ page: Page; url: string; shown: number }> {
    const request = (
      await post('/access/requests', { identity, callback: { action: `${callback.origin}/mfa`, target: '_self' } }, resourceAuth)
    ).model;
    const page = await context.newPage();
    await page.goto(request.url);
    const shown = Number(await page.locator('#approval-number').textContent({ timeout: STEP_TIMEOUT_MS }));
    expect(shown).toBeGreaterThanOrEqual(10);
    return { page, url: request.url, shown };
  }

  /** The service's push, as the push service received it, given to the app's service worker; the app shows the approval. */
  async function deliverPush(): Promise<string> {
    const message = JSON.parse(await push.message(subscription, pushes++, STEP_TIMEOUT_MS));
    expect(message).toEqual({ type: 'approval', approvalId: expect.any(String) });
    await bounded(
      'ServiceWorker.deliverPushMessage',
      cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(api.baseUrl).origin, registrationId, data: JSON.stringify(message) }),
    );
    const card = app.locator(`[data-approval-id="${message.approvalId}"]`);
    await card.waitFor({ timeout: STEP_TIMEOUT_MS });
    // the service worker showed it as a notification too (what a phone with the app closed sees)
    const notifications = await bounded(
      'reading the notifications',
      app.evaluate(
        async (tag) => (await (await (globalThis as any).navigator.serviceWorker.ready).getNotifications({ tag })).length,
        `approval-${message.approvalId}`,
      ),
    );
    expect(notifications).toBe(1);
    // the user turns to the app (a click on the notification focuses it); a tab in the background gets no animation frames
    await bounded('bringing the app to the front', app.bringToFront());
    return message.approvalId;
  }

  beforeAll(async () => {
    if (!chromiumState.available) throw new Error(chromiumState.message);
    requireBundles();
    push = await HttpsPushService.start();
    const database = await createEmptyDatabase();
    dropDatabase = database.drop;
    const port = await freePort();
    const env = cleanEnv({
      DATABASE_URL: database.url,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // the API trusts the fake push service's self-signed certificate
      NODE_EXTRA_CA_CERTS: push.caFile,
    });
    api = await startApi(env);
    const created = JSON.parse(
      runCli(['account', 'create', '--name', 'Acme Bank', '--owner-email', 'o@app.test', '--enable-api', '--json'], env).stdout,
    );
    accountAuth = basic(created.api.key, created.api.secret);
    const resource = (await post('/resources', { Name: 'Intranet' }, accountAuth)).model;
    resourceAuth = basic(resource.apiKey, resource.apiSecret);
    callback = await startCallbackServer();
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'], timeout: STEP_TIMEOUT_MS });
    context = await browser.newContext({ locale: 'en-GB', viewport: { width: 412, height: 860 } });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    await context.grantPermissions(['notifications'], { origin: new URL(api.baseUrl).origin });
    subscription = push.subscribe();
    // the one simulated piece in the page: the browser's subscription names the fake push service
    await context.addInitScript(
      (fake: { endpoint: string; p256dh: string; auth: string }) => {
        const made = {
          endpoint: fake.endpoint,
          expirationTime: null,
          options: { userVisibleOnly: true },
          toJSON: () => ({ endpoint: fake.endpoint, expirationTime: null, keys: { p256dh: fake.p256dh, auth: fake.auth } }),
          unsubscribe: () => Promise.resolve(true),
        };
        let subscribed = false;
        // (the page's own types: this project compiles without the DOM library)
        const manager = (globalThis as any).PushManager;
        manager.prototype.subscribe = function () {
          subscribed = true;
          return Promise.resolve(made);
        };
        manager.prototype.getSubscription = function () {
          return Promise.resolve(subscribed ? made : null);
        };
      },
      {
        endpoint: subscription.endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
      },
    );
  });

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await api?.stop();
    await push?.close();
    await dropDatabase?.();
  });

  it('enrolls from the link: a non-extractable WebCrypto key in IndexedDB, the service worker registered, the push subscription sent', async () => {
    identity = `app-${randomBytes(4).toString('hex')}`;
    const user = (await post('/users', { Identity: identity }, accountAuth)).model;
    const link = await appLinkFromAccessPage();
    expect(link).toMatch(new RegExp(`^${api.baseUrl}/access/app/#enroll=[A-Za-z0-9_-]{43}$`));
    app = await context.newPage();
    cdp = await context.newCDPSession(app);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event: any) => registrations.push(...event.registrations));
    await cdp.send('ServiceWorker.enable');
    await app.goto(link);
    await bounded(
      'the service worker getting ready',
      app.evaluate(() => (globalThis as any).navigator.serviceWorker.ready.then(() => undefined)),
    );
    const scope = `${api.baseUrl}/access/app/`;
    for (let i = 0; i < 100 && !registrations.some((r) => r.scopeURL === scope && !r.isDeleted); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    registrationId = (registrations.find((r) => r.scopeURL === scope && !r.isDeleted) as { registrationId: string }).registrationId;
    expect(registrationId).toEqual(expect.any(String));

    await app.getByRole('button', { name: 'Add to this device' }).click();
    await app.locator('#enrolled').waitFor({ timeout: STEP_TIMEOUT_MS });
    expect(await app.locator('main').textContent()).toContain(`${identity} at Acme Bank`);
    // the token leaves the address bar once spent
    expect(new URL(app.url()).hash).toBe('');
    await app.getByRole('button', { name: 'Show code' }).click();
    await expect(app.locator('.totp-code').textContent()).resolves.toMatch(/^\d{3} \d{3}$/);
    await screenshotIfAsked(app, 'authenticator-enroll.png');

    const stored = await app.evaluate(
      () =>
        new Promise<any>((resolve, reject) => {
          const open = (globalThis as any).indexedDB.open('twofold-authenticator');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const all = open.result.transaction('devices').objectStore('devices').getAll();
            all.onsuccess = () =>
              resolve(
                all.result.map((r: any) => ({
                  deviceId: r.deviceId,
                  privateKey: { type: r.privateKey.type, extractable: r.privateKey.extractable, algorithm: r.privateKey.algorithm },
                  totpKey: { type: r.totpKey.type, extractable: r.totpKey.extractable, algorithm: r.totpKey.algorithm },
                })),
              );
          };
        }),
    );
    expect(stored).toEqual([
      {
        deviceId: expect.any(String),
        privateKey: { type: 'private', extractable: false, algorithm: { name: 'ECDSA', namedCurve: 'P-256' } },
        totpKey: { type: 'secret', extractable: false, algorithm: { name: 'HMAC', hash: { name: 'SHA-1' }, length: 160 } },
      },
    ]);
    const factors = await fetch(`${api.baseUrl}/users/${user.id}/authenticators`, { headers: { authorization: accountAuth } });
    expect(((await factors.json()) as any).model.MobileApp).toEqual([expect.objectContaining({ id: stored[0].deviceId })]);
    await app.getByRole('button', { name: 'Back' }).click();
    await app.locator('#pending-title').waitFor();
  });

  it('a sign-in in another tab: the push reaches the service worker, the app offers three numbers, the right one completes the page', async () => {
    const signin = await signIn();
    await deliverPush();
    const choices = app.locator('button.choice');
    expect(await choices.count()).toBe(3);
    expect(await choices.allTextContents()).toContain(String(signin.shown));
    expect(await app.locator('main').textContent()).toContain('Sign-in to Intranet');
    await screenshotIfAsked(app, 'authenticator-approval.png');
    await app.locator(`button.choice[data-number="${signin.shown}"]`).click();
    await expect(app.locator('#decision-result').getAttribute('data-result', { timeout: STEP_TIMEOUT_MS })).resolves.toBe('approved');
    await screenshotIfAsked(app, 'authenticator-decision.png');
    const arrived = await callback.nextPost(STEP_TIMEOUT_MS);
    expect(arrived.fields.get('accessToken')).toEqual(expect.any(String));
  });

  it('the wrong number denies the sign-in: the page ends on its refusal and nothing reaches the client', async () => {
    const posts = callback.posts.length;
    const signin = await signIn();
    const refused = signin.page.waitForResponse((response) => response.request().method() === 'POST' && response.url() === signin.url);
    await deliverPush();
    const wrong = (await app.locator('button.choice').allTextContents()).find((n) => Number(n) !== signin.shown) as string;
    await app.locator(`button.choice[data-number="${wrong}"]`).click();
    await expect(app.locator('#decision-result').getAttribute('data-result', { timeout: STEP_TIMEOUT_MS })).resolves.toBe('rejected');
    expect((await refused).status()).toBe(403);
    expect(callback.posts.length).toBe(posts);
  });

  it('"It wasn\'t me" denies the sign-in', async () => {
    const posts = callback.posts.length;
    const signin = await signIn();
    const refused = signin.page.waitForResponse((response) => response.request().method() === 'POST' && response.url() === signin.url);
    await deliverPush();
    await app.getByRole('button', { name: 'It wasn’t me' }).click();
    await expect(app.locator('#decision-result').getAttribute('data-result', { timeout: STEP_TIMEOUT_MS })).resolves.toBe('rejected');
    expect((await refused).status()).toBe(403);
    expect(callback.posts.length).toBe(posts);
  });

  it('ra with passCode "m" waits for the app: no numbers to pick, Approve grants it', async () => {
    const answer = post('/access/requests/ra', { identity, passCode: 'm' }, resourceAuth);
    await deliverPush();
    expect(await app.locator('button.choice').count()).toBe(0);
    await app.getByRole('button', { name: 'Approve' }).click();
    await expect(app.locator('#decision-result').getAttribute('data-result', { timeout: STEP_TIMEOUT_MS })).resolves.toBe('approved');
    expect((await answer).model).toMatchObject({ status: 'Granted', identity });
  });

  it('offline, the installed app opens from its service worker and shows its code, which the service accepts', async () => {
    await context.setOffline(true);
    await app.goto(`${api.baseUrl}/access/app/`);
    await app.locator('#offline').waitFor({ timeout: STEP_TIMEOUT_MS });
    await app.getByRole('button', { name: 'Show code' }).click();
    const code = (await app.locator('.totp-code').getAttribute('data-code')) as string;
    expect(code).toMatch(/^\d{6}$/);
    await context.setOffline(false);
    const md = await post('/access/requests/md', { identity, passCode: code }, resourceAuth);
    expect(md.model).toMatchObject({ status: 'Granted', identity });
  });
});
