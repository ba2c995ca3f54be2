import { AccountId, AdminRole } from '@twofold/domain';
import { generateSecret, generateTotp } from '@twofold/otp';
import { AdministratorsRepository } from '@twofold/persistence';
import { outboxMails } from './outbox';
import { TestApp } from './test-app';

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
