import { AdminRole } from '@twofold/domain';
import { basicAuthorization, TestAccount } from '@twofold/persistence/testing';
import { ConsoleTestSession, newConsoleAdmin, signInToConsole } from '../../test/testing/console-admin';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { startTestApp, TestApp } from '../../test/testing/test-app';

const ROUTES = [
  ['get', '/console/api/account-api'],
  ['post', '/console/api/account-api/secret/display'],
  ['post', '/console/api/account-api/secret'],
  ['post', '/console/api/account-api/enable'],
  ['post', '/console/api/account-api/disable'],
] as const;

/** The account's own API key, secret and switch, from the console: an Admin's, journaled with them as the actor. */
describe('the account API key and secret in the console', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function accountWithAdmin(
    role: AdminRole = 'Admin',
  ): Promise<{ owner: TestAccount; admin: { id: string; email: string }; session: ConsoleTestSession }> {
    const owner = await t.newAccount();
    const admin = await newConsoleAdmin(t, owner.account.id, role);
    return { owner, admin, session: await signInToConsole(t, admin) };
  }

  const call = (session: ConsoleTestSession, method: 'get' | 'post', path: string) => t.http()[method](path).set(session.headers);

  it('is refused to every role but Admin, and changes nothing', async () => {
    for (const role of ['Support 1', 'Support 2', 'Support 3', 'Support 4'] as const) {
      const { owner, session } = await accountWithAdmin(role);
      for (const [method, path] of ROUTES) {
        const res = await call(session, method, path);
        expect({ role, path, status: res.status, message: res.body.message }).toEqual({
          role,
          path,
          status: 403,
          message: 'Your role does not allow this.',
        });
      }
      await t.as(owner.authorization).get('/users').expect(200);
      expect(await journalOfToday(t, owner.authorization, 'object=PublicApiSecret')).toEqual([]);
      expect(await journalOfToday(t, owner.authorization, 'object=Api')).toEqual([]);
    }
  });

  it('needs the CSRF token, and the console’s origin for every POST', async () => {
    const { owner, session } = await accountWithAdmin();
    await t.http().get('/console/api/account-api').set({ Cookie: session.headers['Cookie'] }).expect(401);
    for (const [method, path] of ROUTES.filter(([method]) => method === 'post')) {
      const res = await t
        .http()
        [method](path)
        .set({ ...session.headers, Origin: 'https://evil.example' });
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
    await t.as(owner.authorization).get('/users').expect(200);
    expect(await journalOfToday(t, owner.authorization, 'object=PublicApiSecret')).toEqual([]);
  });

  it('shows the key, and the secret on request, each display journaled without the secret', async () => {
    const { owner, admin, session } = await accountWithAdmin();
    const view = await call(session, 'get', '/console/api/account-api').expect(200);
    expect(view.body).toEqual({ enabled: true, apiKey: owner.apiKey });

    const shown = await call(session, 'post', '/console/api/account-api/secret/display').expect(200);
    expect(shown.body).toEqual({ enabled: true, apiKey: owner.apiKey, apiSecret: owner.apiSecret });
    const events = await journalOfToday(t, owner.authorization, 'object=PublicApiSecret');
    expect(events).toEqual([
      {
        object: 'PublicApiSecret',
        action: 'Display',
        subject: admin.email,
        success: true,
        additionalFields: { EmployeeId: admin.id, EmployeeIdentity: admin.email },
        eventDate: expect.any(String),
        eventId: expect.any(String),
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(owner.apiSecret);
  });

  it('gives a new secret shown once: the old one stops working at once, the key stays', async () => {
    const { owner, admin, session } = await accountWithAdmin();
    await t.as(owner.authorization).get('/users').expect(200);
    const rotated = await call(session, 'post', '/console/api/account-api/secret').expect(200);
    expect(rotated.body.apiKey).toBe(owner.apiKey);
    expect(rotated.body.apiSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(rotated.body.apiSecret).not.toBe(owner.apiSecret);

    await t.as(owner.authorization).get('/users').expect(401);
    const renewed = basicAuthorization(owner.apiKey, rotated.body.apiSecret);
    await t.as(renewed).get('/users').expect(200);
    const events = await journalOfToday(t, renewed, 'object=PublicApiSecret');
    expect(events.map((e) => [e.action, e.subject, e.additionalFields])).toEqual([
      ['Update', admin.email, { EmployeeId: admin.id, EmployeeIdentity: admin.email }],
    ]);
    expect(JSON.stringify(events)).not.toContain(rotated.body.apiSecret);
  });

  it('turns the API off and on: the key is refused meanwhile, the console session keeps working', async () => {
    const { owner, admin, session } = await accountWithAdmin();
    const off = await call(session, 'post', '/console/api/account-api/disable').expect(200);
    expect(off.body).toEqual({ enabled: false, apiKey: owner.apiKey });
    const refused = await t.as(owner.authorization).get('/users').expect(403);
    expect(refused.body.message).toBe('The extended API is disabled for this account.');
    await call(session, 'get', '/users').expect(200);
    await call(session, 'get', '/console/api/account-api').expect(200, { enabled: false, apiKey: owner.apiKey });

    const on = await call(session, 'post', '/console/api/account-api/enable').expect(200);
    expect(on.body).toEqual({ enabled: true, apiKey: owner.apiKey });
    // the same credentials work again: configured clients need no change
    await t.as(owner.authorization).get('/users').expect(200);
    const events = await journalOfToday(t, owner.authorization, 'object=Api');
    expect(events.map((e) => [e.action, e.subject, e.success, e.additionalFields])).toEqual([
      ['Disable', admin.email, true, { EmployeeId: admin.id, EmployeeIdentity: admin.email }],
      ['Enable', admin.email, true, { EmployeeId: admin.id, EmployeeIdentity: admin.email }],
    ]);
  });

  it('generates the credentials at the first enable; before it there is no secret to show or renew', async () => {
    const { owner, session } = await accountWithAdmin();
    await t.db
      .manager()
      .query(`UPDATE accounts SET api_enabled = false, api_key = NULL, api_secret_enc = NULL WHERE id = $1`, [owner.account.id]);
    await call(session, 'get', '/console/api/account-api').expect(200, { enabled: false, apiKey: null });
    for (const path of ['/console/api/account-api/secret/display', '/console/api/account-api/secret']) {
      const res = await call(session, 'post', path).expect(400);
      expect(res.body.message).toBe('The API of this account has never been enabled: enable it first.');
    }
    const on = await call(session, 'post', '/console/api/account-api/enable').expect(200);
    expect(on.body.apiKey).toMatch(/^[0-9a-f]{32}$/);
    const shown = await call(session, 'post', '/console/api/account-api/secret/display').expect(200);
    await t.as(basicAuthorization(on.body.apiKey, shown.body.apiSecret)).get('/users').expect(200);
  });
});
