import { newUser, TestAccount } from '@twofold/persistence/testing';
import { CONSOLE_ORIGIN, ConsoleTestSession, newConsoleAdmin, signInToConsole } from '../../test/testing/console-admin';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { startTestApp, TestApp } from '../../test/testing/test-app';

const MINUTE = 60_000;

describe('console sessions on the account API', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.newAccount({ name: 'Console sessions' });
    other = await t.newAccount({ name: 'Another account' });
  });
  afterAll(() => t.close());

  /** Runs `body` with the test clock moved `minutes` on, and puts it back. */
  async function later<T>(minutes: number, body: () => Promise<T>): Promise<T> {
    const start = t.clock.now();
    t.clock.set(new Date(start.getTime() + minutes * MINUTE));
    try {
      return await body();
    } finally {
      t.clock.set(start);
    }
  }

  function usersPage(session: ConsoleTestSession) {
    return t.http().get('/users').set(session.headers);
  }

  it('calls the account API as the administrator: their account only, changes journaled with them as the actor', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 2');
    const session = await signInToConsole(t, admin);
    const mine = await newUser(t.db, owner.account.id, 'console-user-1', { now: t.clock.now() });
    const foreign = await newUser(t.db, other.account.id, 'foreign-user', { now: t.clock.now() });

    const page = await usersPage(session).expect(200);
    expect(JSON.stringify(page.body)).toContain('console-user-1');
    expect(JSON.stringify(page.body)).not.toContain('foreign-user');

    await t.http().post(`/v2/users/${mine.id}/lock`).set(session.headers).expect(200);
    await t.http().post(`/v2/users/${foreign.id}/lock`).set(session.headers).expect(404);
    const events = await journalOfToday(t, owner.authorization);
    expect(events).toContainEqual(
      expect.objectContaining({
        object: 'User',
        subject: admin.email,
        success: true,
        additionalFields: expect.objectContaining({ EmployeeId: admin.id, EmployeeIdentity: admin.email }),
      }),
    );
  });

  it('refuses what the role does not cover, before the handler runs', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 2');
    const session = await signInToConsole(t, admin);
    const res = await t.http().get('/journal?eventDate=2026-05-19').set(session.headers).expect(403);
    expect(res.body).toMatchObject({ message: 'Your role does not allow this.' });
    await t.http().post('/users').set(session.headers).send({ identity: 'made-by-support' }).expect(403);
    const [row] = await t.db.manager().query(`SELECT count(*)::int AS n FROM users WHERE identity = 'made-by-support'`);
    expect(row.n).toBe(0);
  });

  it('needs the CSRF token of the same session on every request, and the console origin on a change', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Admin');
    const session = await signInToConsole(t, admin);
    const second = await signInToConsole(t, await newConsoleAdmin(t, owner.account.id, 'Admin'));
    const refused = await t.http().get('/users').set({ Cookie: session.cookie }).expect(401);
    // no Basic challenge: a browser's fetch would stop at a password dialog
    expect(refused.headers['www-authenticate']).toBeUndefined();
    await t.http().get('/users').set({ Cookie: session.cookie, 'X-CSRF-Token': second.csrfToken }).expect(401);
    const user = await newUser(t.db, owner.account.id, 'csrf-target', { now: t.clock.now() });
    await t.http().post(`/v2/users/${user.id}/lock`).set({ Cookie: session.cookie, 'X-CSRF-Token': session.csrfToken }).expect(403);
    await t
      .http()
      .post(`/v2/users/${user.id}/lock`)
      .set({ ...session.headers, Origin: 'https://evil.example' })
      .expect(403);
    const [locked] = await t.db.manager().query(`SELECT is_locked FROM users WHERE id = $1`, [user.id]);
    expect(locked.is_locked).toBe(false);
    // an API key in the Authorization header is the API key, whatever cookie comes along
    await t
      .http()
      .get('/users')
      .set({ ...session.headers, Authorization: 'Basic bm9wZTpub3Bl' })
      .expect(401);
  });

  it('ends after 30 idle minutes; each request keeps it alive', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    const session = await signInToConsole(t, admin);
    await later(29, () => usersPage(session).expect(200));
    await later(58, () => usersPage(session).expect(200));
    await later(88, () => usersPage(session).expect(401));
  });

  it('ends 12 hours after the sign-in even when used all along', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    const session = await signInToConsole(t, admin);
    for (let minutes = 25; minutes < 12 * 60; minutes += 25) await later(minutes, () => usersPage(session).expect(200));
    await later(12 * 60, () => usersPage(session).expect(401));
  });

  it('ends at once when the administrator is locked, and when they are deleted', async () => {
    const locked = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    const deleted = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    const lockedSession = await signInToConsole(t, locked);
    const deletedSession = await signInToConsole(t, deleted);
    await t.as(owner.authorization).post(`/admins/lock/${locked.id}`).expect(200);
    await t.as(owner.authorization).delete(`/admins/${deleted.id}`).expect(200);
    await usersPage(lockedSession).expect(401);
    await usersPage(deletedSession).expect(401);
    // unlocking does not bring the old session back: the administrator signs in anew
    await t.as(owner.authorization).post(`/admins/unlock/${locked.id}`).expect(200);
    const [row] = await t.db.manager().query(`SELECT revoked_at FROM console_sessions WHERE administrator_id = $1`, [locked.id]);
    expect(row.revoked_at).not.toBeNull();
    await usersPage(lockedSession).expect(401);
  });

  it('lets an administrator lock themselves out (SelfLock); an Admin unlocks them (SelfUnlock)', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    const session = await signInToConsole(t, admin);
    await t.http().post('/console/api/self-lock').set({ Cookie: session.cookie, Origin: CONSOLE_ORIGIN }).expect(401);
    await t.http().post('/console/api/self-lock').set(session.headers).expect(200);
    await usersPage(session).expect(401);
    const [row] = await t.db.manager().query(`SELECT status FROM administrators WHERE id = $1`, [admin.id]);
    expect(row.status).toBe('Locked');

    await t.as(owner.authorization).post(`/admins/unlock/${admin.id}`).expect(200);
    const events = (await journalOfToday(t, owner.authorization, 'object=Employee')).filter(
      (e) => e.additionalFields['EmployeeId'] === admin.id,
    );
    expect(events.map((e) => [e.action, e.subject])).toEqual([
      ['SelfLock', admin.email],
      ['SelfUnlock', owner.apiKey],
      ['Unlock', owner.apiKey],
    ]);
    // a second unlock after a plain lock is no SelfUnlock
    await t.as(owner.authorization).post(`/admins/lock/${admin.id}`).expect(200);
    await t.as(owner.authorization).post(`/admins/unlock/${admin.id}`).expect(200);
    const again = (await journalOfToday(t, owner.authorization, 'object=Employee')).filter(
      (e) => e.action === 'SelfUnlock' && e.additionalFields['EmployeeId'] === admin.id,
    );
    expect(again).toHaveLength(1);
  });

  it('keeps the last Active Admin from locking themselves out', async () => {
    const alone = await t.newAccount({ name: 'One admin' });
    const admin = await newConsoleAdmin(t, alone.account.id, 'Admin');
    const session = await signInToConsole(t, admin);
    const res = await t.http().post('/console/api/self-lock').set(session.headers);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.message).toBe('Cannot lock last scope admin.');
    await usersPage(session).expect(200);
  });

  it('shows the account at a glance on the dashboard, to any role, from its own account only', async () => {
    const glance = await t.newAccount({ name: 'Glance', licenses: 7 });
    await newUser(t.db, glance.account.id, 'glance-1', { now: t.clock.now() });
    await newUser(t.db, glance.account.id, 'glance-2', { now: t.clock.now(), locked: true });
    const session = await signInToConsole(t, await newConsoleAdmin(t, glance.account.id, 'Support 1'));
    const res = await t.http().get('/console/api/dashboard').set(session.headers).expect(200);
    expect(res.body).toEqual({
      licenses: 7,
      users: 2,
      lockedUsers: 1,
      codeLockouts: 0,
      signInsGranted: 0,
      signInsDenied: 0,
      approvalsWaiting: 0,
    });
    await t.http().get('/console/api/dashboard').set({ Cookie: session.cookie }).expect(401);
  });

  it('ends on sign-out', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    const session = await signInToConsole(t, admin);
    await t.http().delete('/console/api/session').set(session.headers).expect(200);
    await usersPage(session).expect(401);
  });

  it('is not a session of another origin: the cookie is ignored where the console is off', async () => {
    const off = await startTestApp({ console: false });
    try {
      const account = await off.newAccount();
      await off
        .http()
        .get('/users')
        .set({ Cookie: '__Host-twofold-console=' + 'a'.repeat(43), 'X-CSRF-Token': 'x', Origin: CONSOLE_ORIGIN })
        .expect(401);
      await off.as(account.authorization).get('/users').expect(200);
    } finally {
      await off.close();
    }
  });
});
