import { AccountId, AdminRole } from '@twofold/domain';
import { generateSecret, generateTotp } from '@twofold/otp';
import { AdministratorsRepository } from '@twofold/persistence';
import { outboxMails } from './outbox';
import { createServer } from 'node:net';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { BROWSER_STEP_TIMEOUT_MS, launchChromium } from './in-browser';
import { startTestApp, TestApp } from './test-app';

/** An administrator who completed their invitation: Active, with an authenticator-app secret. */
export interface ConsoleTestAdmin {
  id: string;
  email: string;
  accountId: AccountId;
  secret: Buffer;
  /** the code of their app at the test clock's time (`offsetSteps` 30-second steps later) */
  totp(offsetSteps?: number): string;
}

export async function newConsoleAdmin(
  t: TestApp,
  accountId: AccountId,
  role: AdminRole,
  options: { email?: string; status?: 'Active' | 'Locked' | 'Pending' } = {},
): Promise<ConsoleTestAdmin> {
  const email = options.email ?? `${role.replace(' ', '').toLowerCase()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const secret = generateSecret({ bytes: 20 });
  const admins = new AdministratorsRepository(t.db);
  const admin = await admins.insert(accountId, {
    identity: email,
    name: email,
    role,
    status: options.status ?? 'Active',
    registrationDate: t.clock.now(),
    lastLoginDate: null,
    activatedAt: options.status === 'Pending' ? null : t.clock.now(),
  });
  await t.db
    .manager()
    .query(`UPDATE administrators SET second_factor_secret_enc = $2 WHERE id = $1`, [
      admin.id,
      t.cipher.encrypt('authenticator.secret', secret),
    ]);
  return {
    id: admin.id,
    email,
    accountId,
    secret,
    totp: (offsetSteps = 0) => generateTotp({ secret, time: t.clock.now().getTime() + offsetSteps * 30_000, digits: 6 }),
  };
}

/** The newest console sign-in code mailed to `email`. */
export function mailedConsoleCode(t: TestApp, email: string): string {
  const mails = outboxMails(t).filter((mail) => mail.includes(`To: ${email}`));
  // the link's `#code=`, `=3D` in a quoted-printable body
  const match = /#code(?:=3D|=)([0-9]{8})/.exec(mails.at(-1) ?? '');
  if (!match) throw new Error(`no console sign-in code mailed to ${email}`);
  return match[1];
}

/** The console's origin in tests (PUBLIC_URL of testConfig). */
export const CONSOLE_ORIGIN = 'http://twofold.test';

/** A signed-in console session: its cookie and CSRF token, for requests made by hand. */
export interface ConsoleTestSession {
  cookie: string;
  csrfToken: string;
  /** the headers of a console request: cookie, CSRF token, and the console's origin */
  headers: Record<string, string>;
}

export async function signInToConsole(t: TestApp, admin: ConsoleTestAdmin): Promise<ConsoleTestSession> {
  await t.http().post('/console/api/sign-in').send({ email: admin.email }).expect(200);
  const emailCode = mailedConsoleCode(t, admin.email);
  const res = await t
    .http()
    .post('/console/api/sign-in/finish')
    .send({ email: admin.email, emailCode, secondFactorCode: admin.totp() })
    .expect(200);
  const setCookie = String(res.headers['set-cookie']);
  const cookie = /__Host-twofold-console=[A-Za-z0-9_-]+/.exec(setCookie)?.[0];
  if (!cookie) throw new Error('no console session cookie');
  const csrfToken = res.body.csrfToken as string;
  return { cookie, csrfToken, headers: { Cookie: cookie, 'X-CSRF-Token': csrfToken, Origin: CONSOLE_ORIGIN } };
}

/** What a page would run if a text it shows were markup: the console's browser specs plant it and check it stays text. */
export const PLANTED_MARKUP = '<img src=x onerror="window.__xss=1">';

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * A test application listening on a free port of 127.0.0.1 as `http://localhost:<port>` (its public
 * URL: browsers keep the console's `Secure` `__Host-` cookie over http on localhost only) and a Chromium
 * that resolves localhost there.
 */
export async function startConsoleForBrowser(): Promise<{ t: TestApp; baseUrl: string; browser: Browser }> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const t = await startTestApp({ publicUrl: baseUrl });
  await t.app.listen(port, '127.0.0.1');
  const browser = await launchChromium(['--host-resolver-rules=MAP localhost 127.0.0.1']);
  return { t, baseUrl, browser };
}

/**
 * A fresh context and page for one person at the console, in English, confirming every dialog.
 * `clockAt`: the browser's clock fixed at the service's time (screens that show "yesterday" need a day
 * the service has).
 */
export async function newConsolePage(
  browser: Browser,
  { viewport = { width: 1280, height: 900 }, clockAt }: { viewport?: { width: number; height: number }; clockAt?: Date } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  const page = await context.newPage();
  if (clockAt) await page.clock.setFixedTime(clockAt);
  page.on('dialog', (dialog) => void dialog.accept());
  return { context, page };
}

/** The link of the newest console sign-in mail to `email` (quoted-printable undone), as the administrator clicks it. */
export function mailedConsoleLink(t: TestApp, email: string): string {
  const mail = outboxMails(t)
    .filter((text) => text.includes(`To: ${email}`))
    .at(-1);
  const link = /(http:\/\/localhost:\d+\/console\/#code=3D[0-9]{8}&email=3D[^\s"<]+)/.exec(mail ?? '')?.[1];
  if (!link) throw new Error(`no console link mailed to ${email}`);
  return link.replace(/=3D/g, '=');
}

/**
 * Signs `admin` in on `page` as a person does: their e-mail, then the mailed link opened in the same
 * browser (the code comes filled in) and their authenticator's code. `filled`: the form with the
 * e-mail typed, before it is sent (a screenshot's moment).
 */
export async function signInInBrowser(
  t: TestApp,
  page: Page,
  baseUrl: string,
  admin: ConsoleTestAdmin,
  filled: (page: Page) => Promise<void> = async () => undefined,
): Promise<void> {
  await page.goto(`${baseUrl}/console/`);
  await page.getByLabel('E-mail', { exact: true }).fill(admin.email);
  await filled(page);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('Code from the e-mail').waitFor();
  await page.goto(mailedConsoleLink(t, admin.email));
  await page.getByLabel('Code of your authenticator app').fill(admin.totp());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('who').waitFor();
}
