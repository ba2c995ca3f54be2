import { TestAccount } from '@twofold/persistence/testing';
import { CONSOLE_ORIGIN, ConsoleTestAdmin, mailedConsoleCode, newConsoleAdmin, signInToConsole } from '../../test/testing/console-admin';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { outboxMails } from '../../test/testing/outbox';
import { startTestApp, TestApp } from '../../test/testing/test-app';

const MINUTE = 60_000;

describe('signing in to the console: the mailed code, then the second factor', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.newAccount({ name: 'Console sign-in' });
  });
  afterAll(() => t.close());

  function finish(admin: ConsoleTestAdmin, emailCode: string, secondFactorCode: string) {
    return t.http().post('/console/api/sign-in/finish').send({ email: admin.email, emailCode, secondFactorCode });
  }

  it('mails an 8-digit code and, with the second factor, opens a session in a __Host- cookie, journaled AdminPanel SignIn', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 2');
    await t.http().post('/console/api/sign-in').send({ email: admin.email.toUpperCase() }).expect(200, {});
    const code = mailedConsoleCode(t, admin.email);
    const res = await finish(admin, code, admin.totp()).set('X-Forwarded-For', '203.0.113.7').expect(200);
    expect(res.headers['set-cookie']).toEqual([
      expect.stringMatching(/^__Host-twofold-console=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Strict$/),
    ]);
    expect(res.body).toEqual({
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      administrator: { id: admin.id, identity: admin.email, role: 'Support 2' },
      accountId: owner.account.id,
      permissions: ['users.read', 'users.support'],
    });
    const events = (await journalOfToday(t, owner.authorization)).filter((e) => e.object === 'AdminPanel' && e.subject === admin.email);
    expect(events).toEqual([
      expect.objectContaining({
        action: 'SignIn',
        success: true,
        additionalFields: expect.objectContaining({ EmployeeId: admin.id, '2FAMethod': 'Totp' }),
      }),
    ]);
    // the code is neither in the journal nor usable again
    expect(JSON.stringify(events)).not.toContain(code);
    await finish(admin, code, admin.totp(1)).expect(401);
  });

  it('answers the same for an unknown e-mail and mails nothing to Locked or Pending administrators', async () => {
    const locked = await newConsoleAdmin(t, owner.account.id, 'Admin', { status: 'Locked' });
    const pending = await newConsoleAdmin(t, owner.account.id, 'Admin', { status: 'Pending' });
    const before = outboxMails(t).length;
    for (const email of ['nobody@example.com', locked.email, pending.email]) {
      await t.http().post('/console/api/sign-in').send({ email }).expect(200, {});
    }
    expect(outboxMails(t).length).toBe(before);
  });

  it('refuses a wrong mailed code with one answer, and voids the sign-in after five wrong codes', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    await t.http().post('/console/api/sign-in').send({ email: admin.email }).expect(200);
    const code = mailedConsoleCode(t, admin.email);
    const wrong = code === '00000000' ? '00000001' : '00000000';
    for (let i = 0; i < 5; i += 1) {
      const res = await finish(admin, wrong, admin.totp()).expect(401);
      expect(res.body.message).toBe('The codes are wrong or have expired.');
    }
    await finish(admin, code, admin.totp()).expect(401);
  });

  it('lets the mailed code expire after 10 minutes', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    await t.http().post('/console/api/sign-in').send({ email: admin.email }).expect(200);
    const code = mailedConsoleCode(t, admin.email);
    const start = t.clock.now();
    t.clock.set(new Date(start.getTime() + 10 * MINUTE));
    try {
      await finish(admin, code, admin.totp()).expect(401);
    } finally {
      t.clock.set(start);
    }
  });

  it('refuses a replayed authenticator code: the time step is spent by the sign-in', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    await signInToConsole(t, admin);
    await t.http().post('/console/api/sign-in').send({ email: admin.email }).expect(200);
    await finish(admin, mailedConsoleCode(t, admin.email), admin.totp()).expect(401);
  });

  it('makes the administrator TemporaryLocked for 15 minutes after five wrong second factors, journaled, then lets them in again', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 3');
    await t.http().post('/console/api/sign-in').send({ email: admin.email }).expect(200);
    const code = mailedConsoleCode(t, admin.email);
    const wrongTotp = admin.totp() === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i += 1) await finish(admin, code, wrongTotp).expect(401);
    const [status] = await t.db.manager().query(`SELECT status FROM administrators WHERE id = $1`, [admin.id]);
    expect(status).toEqual({ status: 'TemporaryLocked' });
    // the right factors now: refused while the lock lasts
    await finish(admin, code, admin.totp()).expect(403);
    const events = (await journalOfToday(t, owner.authorization)).filter((e) => e.subject === admin.email);
    expect(events.filter((e) => e.object === 'AdminPanel' && !e.success).length).toBeGreaterThanOrEqual(5);
    expect(events).toContainEqual(
      expect.objectContaining({
        object: 'Employee',
        action: 'Lock',
        additionalFields: expect.objectContaining({ Reason: 'TemporaryLocked' }),
      }),
    );

    const start = t.clock.now();
    t.clock.set(new Date(start.getTime() + 15 * MINUTE));
    try {
      const session = await signInToConsole(t, admin);
      expect(session.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      t.clock.set(start);
    }
  });

  it('takes no sign-in from another site: signing out needs the console origin and the CSRF token', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Support 1');
    const session = await signInToConsole(t, admin);
    await t
      .http()
      .delete('/console/api/session')
      .set({ ...session.headers, Origin: 'https://evil.example' })
      .expect(403);
    await t.http().delete('/console/api/session').set({ Cookie: session.cookie, Origin: CONSOLE_ORIGIN }).expect(401);
    await t.http().delete('/console/api/session').set(session.headers).expect(200);
    await t.http().get('/console/api/session').set('Cookie', session.cookie).expect(401);
  });

  it('hands a new tab the CSRF token of its session from the cookie alone', async () => {
    const admin = await newConsoleAdmin(t, owner.account.id, 'Admin');
    const session = await signInToConsole(t, admin);
    const res = await t.http().get('/console/api/session').set('Cookie', session.cookie).expect(200);
    expect(res.body.csrfToken).toBe(session.csrfToken);
    expect(res.body.permissions).toEqual([
      'users.read',
      'users.support',
      'factors.manage',
      'users.manage',
      'journal.read',
      'account.manage',
    ]);
  });
});

describe('the console turned off (CONSOLE=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ console: false });
  });
  afterAll(() => t.close());

  it('serves no sign-in', async () => {
    await t.http().post('/console/api/sign-in').send({ email: 'a@example.com' }).expect(404);
  });
});
