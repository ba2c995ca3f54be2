/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked by the assertions */
import { randomBytes } from 'node:crypto';
import { jwtVerify } from 'jose';
import { Client } from 'pg';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import {
  base32Decode,
  CallbackServer,
  chromiumAvailability,
  CHROMIUM_PATH,
  FramedMessage,
  FramingSite,
  REPORT_FRAME_LOAD,
  REPORT_MESSAGE,
  screenshotIfAsked,
  startCallbackServer,
  startFramingSite,
  totp,
  totpOfKey,
} from './browser';
import { basic, cleanEnv, freePort, requireBundles, RunningApi, runCli, startApi } from './processes';

/**
 * The second factor end to end, as a user meets it: the built API on a real PostgreSQL, a client site
 * (a local callback server), and Debian's Chromium driven by playwright-core. Set SCREENSHOT_DIR
 * (relative to the repository root, e.g. SCREENSHOT_DIR=docs/images) to also save pictures of the
 * enrollment view for the README.
 */

const PHONE = { width: 420, height: 860 };
const DESKTOP = { width: 1280, height: 860 };
const STEP_TIMEOUT_MS = 30_000;
/** The callback the AD FS adapter and the Keycloak authenticator send (backtick and `$` escaped here) */
const POST_MESSAGE_ACTION = `javascript:window.parent.postMessage($\`AccessToken\`,'*')`;

/** Values pushed by the browser, taken by the test in order: a waiter resolves at the next push, never on a timer. */
function queue<T>(): { push(value: T): void; next(): Promise<T>; all: T[] } {
  const all: T[] = [];
  let taken = 0;
  const waiters: Array<(value: T) => void> = [];
  return {
    all,
    push(value) {
      all.push(value);
      const waiter = waiters.shift();
      if (waiter) waiter(all[taken++]);
    },
    next: () => new Promise<T>((resolve) => (taken < all.length ? resolve(all[taken++]) : waiters.push(resolve))),
  };
}

const chromiumState = chromiumAvailability();
if (!chromiumState.available) console.warn(chromiumState.message);
const describeInBrowser = chromiumState.available || chromiumState.mustFail ? describe : describe.skip;

describe('the TOTP of this test (its own RFC 6238 implementation on node:crypto)', () => {
  it('reproduces the RFC 6238 SHA-1 vectors', () => {
    // RFC 6238 appendix B: key "12345678901234567890", 8 digits
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(base32Decode(secret).toString('ascii')).toBe('12345678901234567890');
    expect(totp(secret, 59_000, 8)).toBe('94287082');
    expect(totp(secret, 1_111_111_109_000, 8)).toBe('07081804');
    expect(totp(secret, 20_000_000_000_000, 8)).toBe('65353130');
    expect(totp('gezd gnbv gy3t qojq gezd gnbv gy3t qojq', 59_000)).toBe('287082');
  });
});

describe('a machine without Chromium', () => {
  it('fails the browser test under CI and skips it loudly elsewhere, never downloading a browser', () => {
    const missing = '/nonexistent/chromium';
    expect(chromiumAvailability({ CI: 'true' }, missing)).toMatchObject({ available: false, mustFail: true });
    expect(chromiumAvailability({ CI: '1' }, missing)).toMatchObject({ available: false, mustFail: true });
    const local = chromiumAvailability({}, missing);
    expect(local).toMatchObject({ available: false, mustFail: false });
    expect(local.available === false && local.message).toContain('apt-get install -y chromium');
    expect(chromiumAvailability({ CI: 'false' }, missing)).toMatchObject({ mustFail: false });
  });
});

describeInBrowser('the access page in headless Chromium: enrollment of a TOTP app, the code, the signed return to the client', () => {
  let api: RunningApi;
  let dropDatabase: (() => Promise<void>) | undefined;
  let callback: CallbackServer;
  let framing: FramingSite;
  let otherFraming: FramingSite;
  let accountAuth: string;
  let databaseUrl: string;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let resource: { id: string; apiKey: string; apiSecret: string };
  let publicUrl: string;
  const identity = `alice-${randomBytes(4).toString('hex')}`;

  let request: { id: string; url: string } | undefined;
  let base32Secret = '';
  let accessToken = '';

  const resourceAuth = () => basic(resource.apiKey, resource.apiSecret);

  async function createAccessRequest(
    body: Record<string, unknown>,
    auth = resourceAuth(),
  ): Promise<{ id: string; url: string; status: string }> {
    const response = await fetch(`${api.baseUrl}/access/requests`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    expect({ status: response.status, success: json.success }).toEqual({ status: 200, success: true });
    return json.model;
  }

  async function accountApi(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { authorization: accountAuth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    expect({ path, status: response.status < 300, success: json.success }).toEqual({ path, status: true, success: true });
    return json.model;
  }

  async function createResource(name: string): Promise<{ id: string; apiKey: string; apiSecret: string }> {
    return accountApi('POST', '/resources', { name });
  }

  /** The origins allowed to frame the resource's pages, written straight into its row. */
  async function setFrameOrigins(resourceId: string, origins: string[]): Promise<void> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const updated = await client.query('UPDATE resources SET frame_origins = $1 WHERE id = $2', [origins, resourceId]);
      expect(updated.rowCount).toBe(1);
    } finally {
      await client.end();
    }
  }

  /** A user holding a TOTP hardware token of a known key: the page asks for its code (no enrollment). */
  async function userWithTotpToken(prefix: string): Promise<{ identity: string; key: Buffer }> {
    const identity = `${prefix}-${randomBytes(4).toString('hex')}`;
    const key = randomBytes(20);
    const user = await accountApi('POST', '/users', { Identity: identity });
    await accountApi('POST', `/users/${user.id}/authenticators/totptoken`, { Name: 'Token', Key: key.toString('hex') });
    return { identity, key };
  }

  /** A page of the framing site with the test's listeners exposed: its `message` events and its iframe's `load`. */
  async function framingPage(site: FramingSite, src: string) {
    const messages = queue<FramedMessage>();
    const loads = queue<true>();
    const parent = await context.newPage();
    await parent.exposeFunction(REPORT_MESSAGE, (message: FramedMessage) => messages.push(message));
    await parent.exposeFunction(REPORT_FRAME_LOAD, () => loads.push(true));
    const frameResponse = parent.waitForResponse((response) => response.url() === src);
    const loaded = loads.next();
    await parent.goto(site.pageUrl(src), { waitUntil: 'load' });
    return { parent, messages, response: await frameResponse, loaded };
  }

  beforeAll(async () => {
    if (!chromiumState.available) throw new Error(chromiumState.message);
    requireBundles();
    const database = await createEmptyDatabase();
    dropDatabase = database.drop;
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    const env = cleanEnv({
      DATABASE_URL: database.url,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      PUBLIC_URL: publicUrl,
    });
    api = await startApi(env);

    const created = runCli(['account', 'create', '--name', 'Browser', '--owner-email', 'o@browser.test', '--enable-api', '--json'], env);
    expect(created.stderr).toBe('');
    const account = JSON.parse(created.stdout).api as { key: string; secret: string };
    accountAuth = basic(account.key, account.secret);
    databaseUrl = database.url;
    resource = await createResource('Intranet');

    callback = await startCallbackServer();
    framing = await startFramingSite();
    otherFraming = await startFramingSite();
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'], timeout: STEP_TIMEOUT_MS });
    context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, locale: 'en-US' });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await framing?.close();
    await otherFraming?.close();
    await api?.stop();
    await dropDatabase?.();
  });

  it('enrolls an authenticator app from the page, accepts its code and POSTs a verifiable accessToken to the callback', async () => {
    const created = await createAccessRequest({
      identity,
      email: `${identity}@client.test`,
      language: 'en',
      claims: { role: 'tester' },
      callback: { action: `${callback.origin}/callback`, target: '_self' },
    });
    expect(created).toMatchObject({ id: expect.any(String), status: 'AwaitingAuthentication' });
    expect(created.url).toBe(`${publicUrl}/access/${created.id}`);
    request = created;

    const response = await page.goto(created.url, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBeTruthy();

    // enrollment: the Base32 secret as text, and the otpauth:// link carrying the same secret
    const secretText = (await page.locator('[data-testid="secret"]').innerText()).trim();
    base32Secret = secretText.replace(/[\s-]/g, '').toUpperCase();
    expect(base32Secret).toMatch(/^[A-Z2-7]{16,}=*$/);
    expect(base32Decode(base32Secret).length).toBeGreaterThanOrEqual(10);
    const otpauth = await page.locator('a[href^="otpauth://totp/"]').first().getAttribute('href');
    expect(new URL(otpauth ?? '').searchParams.get('secret')?.toUpperCase()).toBe(base32Secret);
    await screenshotIfAsked(page, 'access-page.png');

    const form = page.locator('form[method="post" i]').filter({ has: page.locator('input[name="code"]') });
    await expect(form.count()).resolves.toBe(1);

    // no waiting for a fresh time step: the server accepts one step either side
    await form.locator('input[name="code"]').fill(totp(base32Secret));
    const posted = callback.nextPost(STEP_TIMEOUT_MS);
    await form.locator('button[type="submit"]').click();
    const post = await posted;
    await page.waitForURL(`${callback.origin}/callback`);
    await expect(page.locator('#client').innerText()).resolves.toBe('Signed in at the client site');

    expect(post.path).toBe('/callback');
    expect(post.contentType).toContain('application/x-www-form-urlencoded');
    // Exactly one field, named accessToken
    expect([...post.fields.keys()]).toEqual(['accessToken']);
    accessToken = post.fields.get('accessToken') ?? '';

    const { payload, protectedHeader } = await jwtVerify(accessToken, new TextEncoder().encode(resource.apiSecret), {
      issuer: publicUrl,
      audience: resource.apiKey,
      algorithms: ['HS256'],
    });
    expect(protectedHeader.alg).toBe('HS256');
    // a code was checked
    expect(payload).toMatchObject({ sub: identity, jti: created.id, role: 'tester', amr: ['otp'] });
    expect(payload.iat).toEqual(expect.any(Number));
    expect(Math.abs((payload.iat ?? 0) - Date.now() / 1000)).toBeLessThan(120);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);

    // the token is bound to this resource's secret
    await expect(jwtVerify(accessToken, new TextEncoder().encode(`${resource.apiSecret}x`))).rejects.toThrow();

    const polled = await fetch(`${api.baseUrl}/access/requests/${created.id}`, { headers: { authorization: resourceAuth() } });
    expect(polled.status).toBe(200);
    expect(((await polled.json()) as any).model).toMatchObject({
      id: created.id,
      identity,
      status: 'Granted',
      grantedAt: expect.any(String),
    });
  });

  it('does not grant a second time when the same page URL is opened again, in the same browser or another one', async () => {
    expect(request && accessToken).toBeTruthy();
    const url = (request as { url: string }).url;
    const fresh = await (browser as Browser).newContext({ viewport: PHONE });
    try {
      for (const visitor of [page, await fresh.newPage()]) {
        const response = await visitor.goto(url, { waitUntil: 'load' });
        const html = (await response?.text()) ?? '';
        expect(html).not.toMatch(/accessToken/i);
        expect(html).not.toContain(accessToken);
        await expect(visitor.locator('input[name="accessToken" i]').count()).resolves.toBe(0);
        await expect(visitor.locator('input[name="code"]').count()).resolves.toBe(0);
        await expect(visitor.locator('[data-testid="secret"]').count()).resolves.toBe(0);
        expect(visitor.url()).toBe(url);
      }
    } finally {
      await fresh.close();
    }
    expect(callback.posts).toHaveLength(1);
    const polled = await fetch(`${api.baseUrl}/access/requests/${(request as { id: string }).id}`, {
      headers: { authorization: resourceAuth() },
    });
    expect(((await polled.json()) as any).model.status).toBe('Granted');
  });

  it('keeps the TOTP secret, the resource secret and the token out of the API log', async () => {
    expect(base32Secret).not.toBe('');
    // a marker request: once its line is written, so is every line of the flow before it
    await fetch(`${api.baseUrl}/ping?log-marker=secrets-check`);
    const output = await api.waitForOutput('log-marker=secrets-check');
    expect(output).toContain('"url":"/access/'); // the flow's own lines are there: the checks below are not vacuous
    expect(output).not.toContain(base32Secret);
    expect(output).not.toContain(resource.apiSecret);
    expect(output).not.toContain(accessToken);
  });

  it('renders the enrollment view on a desktop screen too (saved with SCREENSHOT_DIR)', async () => {
    const desktop = await (browser as Browser).newContext({ viewport: DESKTOP, deviceScaleFactor: 1, locale: 'en-US' });
    try {
      const other = await createAccessRequest({
        identity: `bob-${randomBytes(4).toString('hex')}`,
        language: 'en',
        callback: { action: `${callback.origin}/callback`, target: '_self' },
      });
      const desktopPage = await desktop.newPage();
      expect((await desktopPage.goto(other.url, { waitUntil: 'load' }))?.status()).toBe(200);
      await expect(desktopPage.locator('[data-testid="secret"]').count()).resolves.toBe(1);
      await screenshotIfAsked(desktopPage, 'access-page-desktop.png');
    } finally {
      await desktop.close();
    }
  });

  it('lets a site on another origin frame the page of a postMessage request (AD FS, Keycloak): the code typed in the frame sends a verifiable token to the parent', async () => {
    const adfs = await createResource('AD FS');
    await setFrameOrigins(adfs.id, [framing.origin]);
    const { identity: holder, key } = await userWithTotpToken('carol');
    const created = await createAccessRequest(
      { identity: holder, language: 'en', callback: { action: POST_MESSAGE_ACTION, target: '_self' } },
      basic(adfs.apiKey, adfs.apiSecret),
    );
    const accessOrigin = new URL(created.url).origin;
    expect(accessOrigin).not.toBe(framing.origin);

    const { parent, messages, response, loaded } = await framingPage(framing, created.url);
    try {
      await loaded;
      expect(response.status()).toBe(200);
      expect(response.headers()['content-security-policy']).toContain(`frame-ancestors ${framing.origin};`);
      expect(response.headers()['x-frame-options']).toBeUndefined();
      const frame = parent.frameLocator('#mfa');
      await expect(frame.locator('h1').innerText()).resolves.toBe('Confirm sign-in to AD FS');

      await frame.locator('#code').fill(totpOfKey(key));
      const received = messages.next();
      await frame.getByRole('button', { name: 'Confirm', exact: true }).click();
      const message = await received;

      // the AD FS adapter takes a message only from the access page's origin, and only its frame's
      expect(message.origin).toBe(accessOrigin);
      expect(message.fromFrame).toBe(true);
      expect(typeof message.data).toBe('string');
      const { payload, protectedHeader } = await jwtVerify(message.data as string, new TextEncoder().encode(adfs.apiSecret), {
        issuer: publicUrl,
        audience: adfs.apiKey,
        algorithms: ['HS256'],
      });
      expect(protectedHeader.alg).toBe('HS256');
      expect(payload).toMatchObject({ sub: holder, jti: created.id, aud: adfs.apiKey });

      // the frame shows the confirmation; the framing site was not navigated away
      await expect(frame.locator('[role="status"]').innerText()).resolves.toBe('Sign-in confirmed. You can continue in the application.');
      await expect(frame.locator('form').count()).resolves.toBe(0);
      expect(parent.url()).toBe(framing.pageUrl(created.url));
      // one frameOrigins entry: one message
      expect(messages.all).toHaveLength(1);
      const polled = await fetch(`${api.baseUrl}/access/requests/${created.id}`, {
        headers: { authorization: basic(adfs.apiKey, adfs.apiSecret) },
      });
      expect(((await polled.json()) as any).model).toMatchObject({ id: created.id, status: 'Granted' });
    } finally {
      await parent.close();
    }
  });

  it('refuses to be framed: the page of a _self http callback anywhere, a postMessage page by an origin its resource does not list', async () => {
    const keycloak = await createResource('Keycloak');
    await setFrameOrigins(keycloak.id, [framing.origin]);
    const plain = await createAccessRequest({
      identity: `dave-${randomBytes(4).toString('hex')}`,
      language: 'en',
      callback: { action: `${callback.origin}/callback`, target: '_self' },
    });
    const elsewhere = await createAccessRequest(
      { identity: `erin-${randomBytes(4).toString('hex')}`, language: 'en', callback: { action: POST_MESSAGE_ACTION, target: '_self' } },
      basic(keycloak.apiKey, keycloak.apiSecret),
    );
    const cases = [
      { site: framing, request: plain, ancestors: "'none'", xFrameOptions: 'DENY' },
      { site: otherFraming, request: plain, ancestors: "'none'", xFrameOptions: 'DENY' },
      { site: otherFraming, request: elsewhere, ancestors: framing.origin, xFrameOptions: undefined },
    ];
    for (const { site, request: refused, ancestors, xFrameOptions } of cases) {
      const { parent, messages, response, loaded } = await framingPage(site, refused.url);
      try {
        // the API answered; the browser, obeying its headers, put its own error page in the frame
        expect(response.status()).toBe(200);
        expect(response.headers()['content-security-policy']).toContain(`frame-ancestors ${ancestors};`);
        expect(response.headers()['x-frame-options']).toBe(xFrameOptions);
        await loaded;
        const child = parent.frames().find((frame) => frame !== parent.mainFrame());
        expect(child).toBeDefined();
        expect(child?.url()).not.toBe(refused.url);
        expect(child?.url()).toMatch(/^chrome-error:/);
        await expect(parent.frameLocator('#mfa').locator('input[name="code"]').count()).resolves.toBe(0);
        expect(await child?.content()).not.toContain('Twofold');
        expect(messages.all).toEqual([]);
      } finally {
        await parent.close();
      }
    }

    // the control: a _parent request of a resource without frameOrigins loads in any site's frame
    const framed = await createAccessRequest({
      identity: `finn-${randomBytes(4).toString('hex')}`,
      language: 'en',
      callback: { action: `${callback.origin}/callback`, target: '_parent' },
    });
    const { parent, response, loaded } = await framingPage(otherFraming, framed.url);
    try {
      expect(response.headers()['content-security-policy']).toContain('frame-ancestors *;');
      await loaded;
      expect(
        parent
          .frames()
          .find((frame) => frame !== parent.mainFrame())
          ?.url(),
      ).toBe(framed.url);
      await expect(parent.frameLocator('#mfa').locator('[data-testid="secret"]').count()).resolves.toBe(1);
    } finally {
      await parent.close();
    }
  });

  it('lets a visitor from a Bypass network straight through to the callback: no code asked, a token whose amr is ["bypass"]', async () => {
    // a resource of its own, named by the list: the other tests' pages keep asking for codes
    const office = await createResource('Office portal');
    const list = await accountApi('POST', '/ip-lists', {
      name: 'Loopback',
      action: 'Bypass',
      ranges: ['127.0.0.0/8', '::1'],
      resources: [office.id],
    });
    expect(list).toMatchObject({ name: 'Loopback', action: 'Bypass', resources: [office.id] });
    const visitor = await context.newPage();
    try {
      // a user the account does not know yet, so without a second factor: registered and let in
      const holder = `gina-${randomBytes(4).toString('hex')}`;
      const created = await createAccessRequest(
        {
          identity: holder,
          language: 'en',
          claims: { role: 'office' },
          callback: { action: `${callback.origin}/bypass`, target: '_self' },
        },
        basic(office.apiKey, office.apiSecret),
      );
      const posted = callback.nextPost(STEP_TIMEOUT_MS);
      const response = await visitor.goto(created.url, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      const post = await posted;
      await visitor.waitForURL(`${callback.origin}/bypass`);
      await expect(visitor.locator('#client').innerText()).resolves.toBe('Signed in at the client site');

      expect(post.path).toBe('/bypass');
      expect([...post.fields.keys()]).toEqual(['accessToken']);
      const { payload } = await jwtVerify(post.fields.get('accessToken') ?? '', new TextEncoder().encode(office.apiSecret), {
        issuer: publicUrl,
        audience: office.apiKey,
        algorithms: ['HS256'],
      });
      expect(payload).toMatchObject({ sub: holder, jti: created.id, role: 'office', amr: ['bypass'] });

      const polled = await fetch(`${api.baseUrl}/access/requests/${created.id}`, {
        headers: { authorization: basic(office.apiKey, office.apiSecret) },
      });
      expect(((await polled.json()) as any).model).toMatchObject({
        id: created.id,
        status: 'Granted',
        bypassed: true,
        authenticator: null,
      });
    } finally {
      await visitor.close();
      await accountApi('DELETE', `/ip-lists/${list.id}`);
    }
  });
});
