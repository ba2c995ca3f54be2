import { journalOfToday } from '../../test/testing/journal-of-today';
import { AccountId } from '@twofold/domain';
import { AdministratorsRepository } from '@twofold/persistence';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PREFIXES = ['', '/v1'];
const MESSAGES = {
  unknownRole: 'Unknown role.',
  lastScopeAdmin: 'Cannot change role of last scope admin.',
  lastScopeAdminLock: 'Cannot lock last scope admin.',
  unlockState: 'Cannot unlock. Admin should be in one of the following states: Locked, TemporaryLocked',
};

describe('administrators', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** An administrator put straight into the database, e.g. an Active one (the API only makes Pending ones). */
  const seedAdmin = (
    accountId: AccountId,
    identity: string,
    values: { role?: string; status?: string; activatedAt?: Date | null; lastLoginDate?: Date | null } = {},
  ) =>
    new AdministratorsRepository(t.db).insert(accountId, {
      identity,
      name: identity,
      role: values.role ?? 'Admin',
      status: values.status ?? 'Active',
      registrationDate: t.clock.now(),
      lastLoginDate: values.lastLoginDate ?? null,
      activatedAt: values.activatedAt,
    });

  const statusOf = async (id: string) =>
    (await t.db.dataSource.query('SELECT status, role, name FROM administrators WHERE id = $1', [id]))[0];

  const employeeEvents = (authorization: string) => journalOfToday(t, authorization, 'object=Employee');

  describe('register and read', () => {
    it.each(PREFIXES)(
      '%s/admins registers a Pending administrator (camelCase keys) and answers the registration object',
      async (prefix) => {
        const { authorization } = await t.newAccount();
        const res = await t.as(authorization).post(`${prefix}/admins`).send({ email: 'ann@example.com', name: 'Ann', role: 'Support 2' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          id: expect.stringMatching(UUID),
          identity: 'ann@example.com',
          name: 'Ann',
          status: 'Pending',
          registrationDate: TEST_NOW.toISOString(),
          lastLoginDate: null,
          appRoles: ['Support 2'],
        });
      },
    );

    it('takes PascalCase keys too, and defaults the name to the e-mail', async () => {
      const { authorization } = await t.newAccount();
      const res = await t.as(authorization).post('/v1/admins').send({ Email: ' Bob@Example.com ', Role: 'Admin' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ identity: 'Bob@Example.com', name: 'Bob@Example.com', status: 'Pending', appRoles: ['Admin'] });
    });

    it.each(PREFIXES)('%s/admins refuses an e-mail already registered in the account, case-insensitively: 403', async (prefix) => {
      const { authorization } = await t.newAccount();
      await t.as(authorization).post(`${prefix}/admins`).send({ email: 'dup@example.com', name: 'A', role: 'Admin' });
      const dup = await t.as(authorization).post(`${prefix}/admins`).send({ email: 'DUP@example.com', name: 'B', role: 'Admin' });
      expect(dup.status).toBe(403);
      expect(dup.body).toEqual({
        message: 'An administrator with the e-mail DUP@example.com already exists.',
        traceId: expect.any(String),
      });
      // another account may use the same e-mail
      const other = await t.newAccount();
      expect((await t.as(other).post(`${prefix}/admins`).send({ email: 'dup@example.com', role: 'Admin' })).status).toBe(200);
    });

    it.each(PREFIXES)('%s/admins answers 400 "Unknown role." for a role that is not one of the five exact strings', async (prefix) => {
      const { authorization } = await t.newAccount();
      for (const role of ['admin', 'Support 5', '', undefined, 3]) {
        const res = await t.as(authorization).post(`${prefix}/admins`).send({ email: 'r@example.com', name: 'R', role });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: MESSAGES.unknownRole, traceId: expect.any(String) });
      }
    });

    it('answers 400 for a missing or malformed e-mail, an empty name, or a body that is not an object', async () => {
      const { authorization } = await t.newAccount();
      const refusals: [object, string][] = [
        [{ name: 'N', role: 'Admin' }, 'email must be a non-empty string.'],
        [{ email: 'not-an-email', role: 'Admin' }, 'email must be an e-mail address.'],
        [{ email: 'n@example.com', name: '  ', role: 'Admin' }, 'name must be a non-empty string.'],
      ];
      for (const [body, message] of refusals) {
        const res = await t.as(authorization).post('/admins').send(body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message, traceId: expect.any(String) });
      }
      const array = await t.as(authorization).post('/admins').set('Content-Type', 'application/json').send('[]');
      expect(array.status).toBe(400);
      const list = await t.as(authorization).get('/admins');
      expect(list.body.totalElements).toBe(0);
    });

    it.each(PREFIXES)('%s/admins lists administrators paged, lastLoginDate only when there is one', async (prefix) => {
      const { account, authorization } = await t.newAccount();
      const owner = await seedAdmin(account.id, 'owner@example.com', { lastLoginDate: new Date('2026-05-19T08:00:00Z') });
      t.clock.advance(1000);
      const second = await t.as(authorization).post(`${prefix}/admins`).send({ email: 'two@example.com', name: 'Two', role: 'Support 1' });
      t.clock.set(TEST_NOW);

      const all = await t.as(authorization).get(`${prefix}/admins`);
      expect(all.status).toBe(200);
      expect(all.body).toEqual({
        data: [
          {
            id: owner.id,
            identity: 'owner@example.com',
            name: 'owner@example.com',
            status: 'Active',
            roles: ['Admin'],
            registrationDate: TEST_NOW.toISOString(),
            lastLoginDate: '2026-05-19T08:00:00.000Z',
          },
          {
            id: second.body.id,
            identity: 'two@example.com',
            name: 'Two',
            status: 'Pending',
            roles: ['Support 1'],
            registrationDate: new Date(TEST_NOW.getTime() + 1000).toISOString(),
          },
        ],
        offset: 0,
        limit: 100,
        totalElements: 2,
      });

      const page = await t.as(authorization).get(`${prefix}/admins?Offset=1&limit=1`);
      expect(page.body).toMatchObject({ offset: 1, limit: 1, totalElements: 2 });
      expect(page.body.data.map((a: { id: string }) => a.id)).toEqual([second.body.id]);

      for (const [bad, message] of [
        ['limit=-1', 'limit must be a non-negative integer.'],
        ['limit=1001', 'limit must not exceed 1000.'],
        ['offset=x', 'offset must be a non-negative integer.'],
      ]) {
        const res = await t.as(authorization).get(`${prefix}/admins?${bad}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message, traceId: expect.any(String) });
      }
    });

    it.each(PREFIXES)(
      '%s/admins?identity= answers the one administrator, matched case-insensitively, without lastLoginDate; 404 when none',
      async (prefix) => {
        const { account, authorization } = await t.newAccount();
        const owner = await seedAdmin(account.id, 'Owner@Example.com', { lastLoginDate: new Date('2026-05-19T08:00:00Z') });
        const found = await t.as(authorization).get(`${prefix}/admins?identity=owner@example.COM`);
        expect(found.status).toBe(200);
        expect(found.body).toEqual({
          id: owner.id,
          identity: 'Owner@Example.com',
          name: 'Owner@Example.com',
          status: 'Active',
          roles: ['Admin'],
          registrationDate: TEST_NOW.toISOString(),
        });
        expect((await t.as(authorization).get(`${prefix}/admins?Identity=owner@example.com`)).body.id).toBe(owner.id);
        const none = await t.as(authorization).get(`${prefix}/admins?identity=nobody@example.com`);
        expect(none.status).toBe(404);
        expect(none.body).toEqual({ message: 'Administrator not found.', traceId: expect.any(String) });
        // another account's administrator is not found either
        const other = await t.newAccount();
        expect((await t.as(other).get(`${prefix}/admins?identity=owner@example.com`)).status).toBe(404);
      },
    );

    it('requires the account credentials', async () => {
      const res = await t.http().get('/admins');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Authentication required.', traceId: expect.any(String) });
    });
  });

  describe('change, delete, lock, unlock', () => {
    it.each(PREFIXES)('PUT %s/admins/{id} changes name and role (either key case): 200 without a body', async (prefix) => {
      const { account, authorization } = await t.newAccount();
      await seedAdmin(account.id, 'owner@example.com');
      const admin = await seedAdmin(account.id, 'x@example.com', { role: 'Support 1' });
      const res = await t.as(authorization).put(`${prefix}/admins/${admin.id}`).send({ Name: 'Xavier', Role: 'Support 3' });
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(await statusOf(admin.id)).toEqual({ status: 'Active', role: 'Support 3', name: 'Xavier' });
      expect((await t.as(authorization).put(`${prefix}/admins/${admin.id}`).send({ name: 'X' })).status).toBe(200);
      expect(await statusOf(admin.id)).toEqual({ status: 'Active', role: 'Support 3', name: 'X' });
    });

    it('PUT answers 400 for an unknown role, a bad status, or nothing to change, and changes nothing', async () => {
      const { account, authorization } = await t.newAccount();
      const admin = await seedAdmin(account.id, 'x@example.com', { role: 'Support 1' });
      const unknown = await t.as(authorization).put(`/admins/${admin.id}`).send({ name: 'Y', role: 'Boss' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ message: MESSAGES.unknownRole, traceId: expect.any(String) });
      expect((await t.as(authorization).put(`/admins/${admin.id}`).send({ status: 'Pending' })).status).toBe(400);
      expect((await t.as(authorization).put(`/admins/${admin.id}`).send({})).status).toBe(400);
      expect(await statusOf(admin.id)).toEqual({ status: 'Active', role: 'Support 1', name: 'x@example.com' });
    });

    it.each(PREFIXES)('PUT %s/admins/{id} with status Locked locks and with status Active unlocks', async (prefix) => {
      const { account, authorization } = await t.newAccount();
      await seedAdmin(account.id, 'owner@example.com');
      const admin = await seedAdmin(account.id, 'x@example.com');
      expect((await t.as(authorization).put(`${prefix}/admins/${admin.id}`).send({ Status: 'Locked' })).status).toBe(200);
      expect((await statusOf(admin.id)).status).toBe('Locked');
      expect((await t.as(authorization).put(`${prefix}/admins/${admin.id}`).send({ status: 'Active', name: 'X' })).status).toBe(200);
      expect(await statusOf(admin.id)).toEqual({ status: 'Active', role: 'Admin', name: 'X' });
      // a Pending administrator cannot be made Active by an unlock
      const pending = await seedAdmin(account.id, 'p@example.com', { status: 'Pending' });
      const res = await t.as(authorization).put(`${prefix}/admins/${pending.id}`).send({ status: 'Active' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(MESSAGES.unlockState);
    });

    it.each(PREFIXES)('POST %s/admins/lock/{id} locks, unlock returns to Active', async (prefix) => {
      const { account, authorization } = await t.newAccount();
      await seedAdmin(account.id, 'owner@example.com');
      const admin = await seedAdmin(account.id, 'x@example.com', { role: 'Support 4' });
      const locked = await t.as(authorization).post(`${prefix}/admins/lock/${admin.id}`);
      expect(locked.status).toBe(200);
      expect(locked.text).toBe('');
      expect((await statusOf(admin.id)).status).toBe('Locked');
      expect((await t.as(authorization).post(`${prefix}/admins/lock/${admin.id}`)).status).toBe(200);
      const unlocked = await t.as(authorization).post(`${prefix}/admins/unlock/${admin.id}`);
      expect(unlocked.status).toBe(200);
      expect(unlocked.text).toBe('');
      expect((await statusOf(admin.id)).status).toBe('Active');
    });

    it('unlocks TemporaryLocked to Active, and a never activated administrator back to Pending', async () => {
      const { account, authorization } = await t.newAccount();
      const temp = await seedAdmin(account.id, 't@example.com', { status: 'TemporaryLocked', activatedAt: TEST_NOW });
      expect((await t.as(authorization).post(`/admins/unlock/${temp.id}`)).status).toBe(200);
      expect((await statusOf(temp.id)).status).toBe('Active');

      const invited = await t.as(authorization).post('/admins').send({ email: 'new@example.com', role: 'Admin' });
      expect((await t.as(authorization).post(`/admins/lock/${invited.body.id}`)).status).toBe(200);
      expect((await statusOf(invited.body.id)).status).toBe('Locked');
      expect((await t.as(authorization).post(`/admins/unlock/${invited.body.id}`)).status).toBe(200);
      expect((await statusOf(invited.body.id)).status).toBe('Pending');
    });

    it.each(PREFIXES)('POST %s/admins/unlock/{id} refuses an administrator that is not locked, with the exact message', async (prefix) => {
      const { account, authorization } = await t.newAccount();
      for (const status of ['Active', 'Pending']) {
        const admin = await seedAdmin(account.id, `${status}@example.com`, { status, role: 'Support 1' });
        const res = await t.as(authorization).post(`${prefix}/admins/unlock/${admin.id}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: MESSAGES.unlockState, traceId: expect.any(String) });
        expect((await statusOf(admin.id)).status).toBe(status);
      }
    });

    it.each(PREFIXES)('DELETE %s/admins/{id} removes the administrator: 200', async (prefix) => {
      const { account, authorization } = await t.newAccount();
      await seedAdmin(account.id, 'owner@example.com');
      const admin = await seedAdmin(account.id, 'x@example.com');
      const res = await t.as(authorization).delete(`${prefix}/admins/${admin.id}`);
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect((await t.as(authorization).get('/admins?identity=x@example.com')).status).toBe(404);
      expect((await t.as(authorization).delete(`${prefix}/admins/${admin.id}`)).status).toBe(404);
    });
  });

  describe('the last scope admin (the last Active administrator with role Admin)', () => {
    it.each(PREFIXES)('%s: cannot be deleted, lose the role Admin, or be locked, with the exact messages', async (prefix) => {
      const { account, authorization } = await t.newAccount();
      const last = await seedAdmin(account.id, 'last@example.com');
      // neither a Pending nor a Locked Admin, nor an Active Support, counts as a scope admin
      await seedAdmin(account.id, 'pending@example.com', { status: 'Pending' });
      await seedAdmin(account.id, 'locked@example.com', { status: 'Locked', activatedAt: TEST_NOW });
      await seedAdmin(account.id, 'support@example.com', { role: 'Support 1' });
      const refusals: [Promise<{ status: number; body: unknown }>, string][] = [
        [t.as(authorization).delete(`${prefix}/admins/${last.id}`), MESSAGES.lastScopeAdmin],
        [t.as(authorization).put(`${prefix}/admins/${last.id}`).send({ role: 'Support 1' }), MESSAGES.lastScopeAdmin],
        [t.as(authorization).post(`${prefix}/admins/lock/${last.id}`), MESSAGES.lastScopeAdminLock],
        [t.as(authorization).put(`${prefix}/admins/${last.id}`).send({ status: 'Locked' }), MESSAGES.lastScopeAdminLock],
      ];
      for (const [call, message] of refusals) {
        const res = await call;
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message, traceId: expect.any(String) });
      }
      expect(await statusOf(last.id)).toEqual({ status: 'Active', role: 'Admin', name: 'last@example.com' });
      // a change that keeps it an Active Admin is fine
      expect(
        (await t.as(authorization).put(`${prefix}/admins/${last.id}`).send({ name: 'Last', role: 'Admin', status: 'Active' })).status,
      ).toBe(200);
    });

    it('with two scope admins one may go; then the other is the last', async () => {
      const { account, authorization } = await t.newAccount();
      const a = await seedAdmin(account.id, 'a@example.com');
      const b = await seedAdmin(account.id, 'b@example.com');
      expect((await t.as(authorization).post(`/admins/lock/${a.id}`)).status).toBe(200);
      expect((await t.as(authorization).delete(`/admins/${b.id}`)).status).toBe(400);
      // unlocking brings a back as a scope admin, and b may go
      expect((await t.as(authorization).post(`/admins/unlock/${a.id}`)).status).toBe(200);
      expect((await t.as(authorization).delete(`/admins/${b.id}`)).status).toBe(200);
      expect((await t.as(authorization).put(`/admins/${a.id}`).send({ role: 'Support 2' })).status).toBe(400);
    });

    it('holds under parallel requests: of two changes each taking one of the last two scope admins away, exactly one succeeds', async () => {
      const operations = [
        (id: string, authorization: string) => t.as(authorization).delete(`/admins/${id}`),
        (id: string, authorization: string) => t.as(authorization).post(`/v1/admins/lock/${id}`),
        (id: string, authorization: string) => t.as(authorization).put(`/admins/${id}`).send({ role: 'Support 1' }),
        (id: string, authorization: string) => t.as(authorization).put(`/admins/${id}`).send({ status: 'Locked' }),
      ];
      for (let round = 0; round < 12; round += 1) {
        const { account, authorization } = await t.newAccount();
        const a = await seedAdmin(account.id, 'a@example.com');
        const b = await seedAdmin(account.id, 'b@example.com');
        const first = operations[round % operations.length];
        const second = operations[(round + Math.floor(round / operations.length)) % operations.length];
        const results = await Promise.all([first(a.id, authorization), second(b.id, authorization)]);
        const statuses = results.map((r) => r.status).sort();
        expect({ round, statuses }).toEqual({ round, statuses: [200, 400] });
        const left = await t.db.dataSource.query(
          `SELECT count(*)::int AS n FROM administrators WHERE account_id = $1 AND status = 'Active' AND role = 'Admin'`,
          [account.id],
        );
        expect(left[0].n).toBe(1);
      }
    });
  });

  describe('invitation re-send', () => {
    it('answers 200 without a body for a Pending administrator, by V1 query id (any key case) and by V2 path id', async () => {
      const { authorization } = await t.newAccount();
      const invited = await t.as(authorization).post('/admins').send({ email: 'inv@example.com', role: 'Support 1' });
      for (const path of [
        `/admins/resend-invitation-email?id=${invited.body.id}`,
        `/v1/admins/resend-invitation-email?Id=${invited.body.id}`,
        `/v2/admins/resend-invitation-email/${invited.body.id}`,
      ]) {
        const res = await t.as(authorization).post(path);
        expect({ path, status: res.status, text: res.text }).toEqual({ path, status: 200, text: '' });
      }
    });

    it('answers 400 for an administrator that is not Pending and for a missing id', async () => {
      const { account, authorization } = await t.newAccount();
      const active = await seedAdmin(account.id, 'a@example.com');
      for (const path of [`/admins/resend-invitation-email?id=${active.id}`, `/v2/admins/resend-invitation-email/${active.id}`]) {
        const res = await t.as(authorization).post(path);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          message: 'An invitation can only be re-sent to a Pending administrator; this one is Active.',
          traceId: expect.any(String),
        });
      }
      const missing = await t.as(authorization).post('/v1/admins/resend-invitation-email');
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('id is required.');
    });
  });

  it("answers 404 for another account's administrator on every id endpoint, and for ids that are not UUIDs", async () => {
    const mine = await t.newAccount();
    const theirs = await t.newAccount();
    const theirAdmin = await seedAdmin(theirs.account.id, 'their@example.com', { role: 'Support 1', status: 'Pending' });
    const calls = (id: string): [string, () => ReturnType<ReturnType<TestApp['http']>['get']>][] => [
      ...PREFIXES.flatMap((prefix): [string, () => ReturnType<ReturnType<TestApp['http']>['get']>][] => [
        [`PUT ${prefix}/admins/{id}`, () => t.as(mine).put(`${prefix}/admins/${id}`).send({ name: 'Mine' })],
        [`DELETE ${prefix}/admins/{id}`, () => t.as(mine).delete(`${prefix}/admins/${id}`)],
        [`POST ${prefix}/admins/lock/{id}`, () => t.as(mine).post(`${prefix}/admins/lock/${id}`)],
        [`POST ${prefix}/admins/unlock/{id}`, () => t.as(mine).post(`${prefix}/admins/unlock/${id}`)],
        [`POST ${prefix}/admins/resend-invitation-email?id=`, () => t.as(mine).post(`${prefix}/admins/resend-invitation-email?id=${id}`)],
      ]),
      ['POST /v2/admins/resend-invitation-email/{id}', () => t.as(mine).post(`/v2/admins/resend-invitation-email/${id}`)],
    ];
    for (const id of [theirAdmin.id, 'not-a-uuid']) {
      for (const [call, send] of calls(id)) {
        const res = await send();
        expect({ call, status: res.status, body: res.body }).toEqual({
          call,
          status: 404,
          body: { message: 'Administrator not found.', traceId: expect.any(String) },
        });
      }
    }
    expect(await statusOf(theirAdmin.id)).toEqual({ status: 'Pending', role: 'Support 1', name: 'their@example.com' });
  });

  it('journals Employee Create, Update, Delete, Lock and Unlock, successes and refusals, with the administrator named', async () => {
    const { account, apiKey, authorization } = await t.newAccount();
    const owner = await seedAdmin(account.id, 'owner@example.com');
    const created = await t.as(authorization).post('/admins').send({ email: 'emp@example.com', name: 'Emp', role: 'Admin' });
    const id = created.body.id;
    await t.as(authorization).post('/admins').send({ email: 'emp@example.com', role: 'Admin' }); // 403
    await t.as(authorization).put(`/admins/${id}`).send({ role: 'Support 1' });
    await t.as(authorization).put(`/v1/admins/${id}`).send({ role: 'Nope' }); // 400
    await t.as(authorization).post(`/admins/lock/${id}`);
    await t.as(authorization).post(`/admins/lock/${owner.id}`); // last scope admin
    await t.as(authorization).post(`/v1/admins/unlock/${id}`);
    await t.as(authorization).post(`/admins/unlock/${owner.id}`); // not locked
    await t.as(authorization).post(`/admins/resend-invitation-email?id=${id}`); // journaled as EnrollmentLink Send, not Employee
    await t.as(authorization).delete(`/admins/${owner.id}`); // last scope admin
    await t.as(authorization).delete(`/admins/${id}`);

    const events = await employeeEvents(authorization);
    expect(events.map((e) => [e.object, e.action, e.success, e.additionalFields])).toEqual([
      [
        'Employee',
        'Create',
        true,
        {
          EmployeeId: id,
          EmployeeIdentity: 'emp@example.com',
          // the invitation: its link with the token cut short, never usable from the journal
          EnrollmentLink: expect.stringMatching(/^http:\/\/twofold\.test\/access\/enroll\/[A-Za-z0-9_-]{6}…$/),
          EnrollmentLinkEmail: 'emp@example.com',
          EnrollmentLinkTTL: '10080',
        },
      ],
      ['Employee', 'Create', false, { EmployeeIdentity: 'emp@example.com' }],
      ['Employee', 'Update', true, { EmployeeId: id, EmployeeIdentity: 'emp@example.com' }],
      ['Employee', 'Update', false, { EmployeeId: id, EmployeeIdentity: 'emp@example.com' }],
      ['Employee', 'Lock', true, { EmployeeId: id, EmployeeIdentity: 'emp@example.com' }],
      ['Employee', 'Lock', false, { EmployeeId: owner.id, EmployeeIdentity: 'owner@example.com' }],
      ['Employee', 'Unlock', true, { EmployeeId: id, EmployeeIdentity: 'emp@example.com' }],
      ['Employee', 'Unlock', false, { EmployeeId: owner.id, EmployeeIdentity: 'owner@example.com' }],
      ['Employee', 'Delete', false, { EmployeeId: owner.id, EmployeeIdentity: 'owner@example.com' }],
      ['Employee', 'Delete', true, { EmployeeId: id, EmployeeIdentity: 'emp@example.com' }],
    ]);
    expect(new Set(events.map((e) => e.subject))).toEqual(new Set([apiKey]));
  });
});
