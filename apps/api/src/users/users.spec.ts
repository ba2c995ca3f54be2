import { AccountId } from '@twofold/domain';
import { UsersRepository } from '@twofold/persistence';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';

describe('users V1', () => {
  let t: TestApp;
  let authorization: string;
  let accountId: AccountId;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount({ licenses: 1000 });
    authorization = account.authorization;
    accountId = account.account.id;
  });
  afterAll(() => t.close());

  const create = (body: object, auth = authorization) => t.as(auth).post('/users').send(body);
  const list = (query = '') => t.as(authorization).get(`/users${query}`);

  it('creates a user from PascalCase input and answers the user object in the model envelope', async () => {
    const res = await create({ Identity: 'jane.doe', Email: 'jane@example.test', Name: 'Jane Doe', Phone: '+7 916 123-45-67' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      model: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        identity: 'jane.doe',
        name: 'Jane Doe',
        email: 'jane@example.test',
        isEnrolled: true,
        createdAt: TEST_NOW.toISOString(),
        lastLogin: null,
        isLocked: false,
        groups: ['AllUsers'],
        authenticators: ['Sms'],
        customFields: [],
        codeLockouts: [],
      },
      success: true,
      message: null,
    });
  });

  it('takes camelCase input alike; a user without factors is not enrolled', async () => {
    const res = await create({ identity: 'camel.case', email: null, name: null });
    expect(res.status).toBe(200);
    expect(res.body.model).toMatchObject({ identity: 'camel.case', name: null, email: null, isEnrolled: false, authenticators: [] });
  });

  it('refuses an empty identity, a bad e-mail, a bad phone, an unknown source; journals the refusal', async () => {
    const refusalsOf = async () => journalOfToday(t, authorization, 'object=User&action=Create&success=false');
    const before = (await refusalsOf()).length;
    const refusals: [object, string][] = [
      [{}, 'Identity must not be empty.'],
      [{ Identity: '' }, 'Identity must not be empty.'],
      [{ Identity: '  ' }, 'Identity must not be empty.'],
      [{ Identity: 'x', Email: 'nope' }, 'Email must be in e-mail format.'],
      [{ Identity: 'x', Phone: '12' }, 'Phone number 12 is incorrect.'],
      [{ Identity: 'x', Source: 'Ldap' }, 'Source must be one of: Api, Directory.'],
    ];
    for (const [body, message] of refusals) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ model: null, success: false, message, traceId: expect.any(String) });
    }
    expect((await list('?identity=x')).body.model).toEqual([]);
    // each refusal is journaled User Create, success false, with the identity as sent (trimmed)
    const journaled = (await refusalsOf()).slice(before);
    expect(journaled.map((event) => event.additionalFields.UserIdentity ?? null)).toEqual([null, '', '', 'x', 'x', 'x']);
  });

  it('answers 409 for an identity that exists in the account, compared case-insensitively', async () => {
    expect((await create({ Identity: 'dup.user' })).status).toBe(200);
    const dup = await create({ Identity: 'DUP.USER' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ model: null, success: false, message: 'A user with the identity DUP.USER already exists.' });
  });

  it('ten parallel creations of one identity give exactly one user', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => create({ Identity: 'racer' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect((await list('?identity=racer')).body.model).toHaveLength(1);
  });

  it('the same identity can exist in another account', async () => {
    const other = await t.newAccount();
    expect((await create({ Identity: 'jane.doe' }, other.authorization)).status).toBe(200);
  });

  it('lists users with the identity filter (case-insensitive) and phones only withPhones=true', async () => {
    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.success).toBe(true);
    expect(all.body.model.length).toBeGreaterThanOrEqual(3);
    expect(all.body.model[0]).not.toHaveProperty('phones');

    const one = await list('?Identity=JANE.DOE&withPhones=true');
    expect(one.body.model).toHaveLength(1);
    expect(one.body.model[0]).toMatchObject({ identity: 'jane.doe', phones: ['+79161234567'], authenticators: ['Sms'] });
    expect((await list('?withPhones=maybe')).status).toBe(400);
    expect((await list('?limit=1')).body.model).toHaveLength(1);
    expect((await list('?limit=-1')).status).toBe(400);
  });

  it('lists the members of a group by its name in any case, paged; AllUsers is everyone, an unknown group nobody', async () => {
    const other = await t.newAccount();
    const group = async (auth: string, name: string) => (await t.as(auth).post('/groups').send({ name }).expect(201)).body.model;
    await group(authorization, 'Members');
    await group(other.authorization, 'Members');
    const ids: string[] = [];
    for (const identity of ['member.one', 'member.two', 'member.three']) {
      const user = (await create({ Identity: identity, Groups: { Add: ['Members'] } })).body.model;
      ids.push(user.id);
    }
    await create({ Identity: 'member.of.other', Groups: { Add: ['Members'] } }, other.authorization);
    await create({ Identity: 'not.a.member' });

    const members = await list('?group=MEMBERS');
    expect(members.status).toBe(200);
    const membersIds = members.body.model.map((user: { id: string }) => user.id);
    expect([...membersIds].sort()).toEqual([...ids].sort());
    // the users' order (creation, then id) pages them
    expect((await list('?group=Members&offset=1&limit=1')).body.model.map((user: { id: string }) => user.id)).toEqual([membersIds[1]]);
    expect((await list('?group=Members&identity=member.two')).body.model).toHaveLength(1);
    expect((await list('?group=Members&identity=not.a.member')).body.model).toEqual([]);
    expect((await list('?group=Nobody')).body.model).toEqual([]);
    const everyone = (await list('?group=allusers&limit=1000')).body.model;
    expect(everyone.length).toBe((await list('?limit=1000')).body.model.length);
    expect((await list('?group=a&group=b')).status).toBe(400);
  });

  it('counts users against the licenses', async () => {
    const res = await t.as(authorization).get('/users/count');
    expect(res.status).toBe(200);
    expect(res.body.model).toEqual({ total: await new UsersRepository(t.db).count(accountId), limit: 1000 });
  });

  describe('PUT /users/{id}', () => {
    let id: string;
    beforeAll(async () => {
      await t.as(authorization).post('/groups').send({ name: 'Staff' });
      await t.as(authorization).post('/groups').send({ name: 'Ops' });
      id = (await create({ Identity: 'v1.user', Name: 'Vee' })).body.model.id;
    });

    it('changes identity, name, e-mail, lock state and groups, answering the updated user', async () => {
      const res = await t
        .as(authorization)
        .put(`/users/${id}`)
        .send({ Identity: 'v1.renamed', Name: 'Vee One', Email: 'v1@example.test', IsLocked: true, Groups: { Add: ['Staff', 'ops'] } });
      expect(res.status).toBe(200);
      expect(res.body.model).toMatchObject({
        id,
        identity: 'v1.renamed',
        name: 'Vee One',
        email: 'v1@example.test',
        isLocked: true,
        groups: ['AllUsers', 'Ops', 'Staff'],
      });

      const again = await t
        .as(authorization)
        .put(`/users/${id}`)
        .send({ isLocked: false, groups: { remove: ['Staff'] }, email: null });
      expect(again.body.model).toMatchObject({
        identity: 'v1.renamed',
        name: 'Vee One',
        email: null,
        isLocked: false,
        groups: ['AllUsers', 'Ops'],
      });
    });

    it('refuses an identity that another user has (409), an empty identity, a bad e-mail, AllUsers and unknown groups (400)', async () => {
      const put = (body: object) => t.as(authorization).put(`/users/${id}`).send(body);
      expect((await put({ Identity: 'jane.doe' })).status).toBe(409);
      expect((await put({ Identity: '' })).status).toBe(400);
      expect((await put({ Email: 'bad' })).status).toBe(400);
      expect((await put({ IsLocked: 'yes' })).status).toBe(400);
      expect((await put({ Groups: { Add: ['AllUsers'] } })).status).toBe(400);
      expect((await put({ Groups: { Remove: ['AllUsers'] } })).status).toBe(400);
      const unknown = await put({ Groups: { Add: ['Ghosts'] } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe('Group not found: Ghosts.');
      expect((await list('?identity=v1.renamed')).body.model[0]).toMatchObject({ groups: ['AllUsers', 'Ops'], email: null });
    });
  });

  it("another account's user, an unknown id and a malformed id are 404", async () => {
    const other = await t.newAccount();
    const foreign = (await create({ Identity: 'foreign' }, other.authorization)).body.model.id;
    for (const id of [foreign, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await t.as(authorization).put(`/users/${id}`).send({ Name: 'x' })).status).toBe(404);
      expect((await t.as(authorization).delete(`/users/${id}`)).status).toBe(404);
      expect((await t.as(authorization).post(`/v2/users/${id}/lock`)).status).toBe(404);
    }
    expect((await list('?identity=foreign')).body.model).toEqual([]);
  });

  it('deletes a user; the identity is free again', async () => {
    const id = (await create({ Identity: 'short.lived' })).body.model.id;
    const res = await t.as(authorization).delete(`/users/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ model: null, success: true, message: 'User deleted.' });
    expect((await list('?identity=short.lived')).body.model).toEqual([]);
    expect((await create({ Identity: 'short.lived' })).status).toBe(200);
  });

  it('works under /v1 too', async () => {
    expect((await t.as(authorization).get('/v1/users/count')).status).toBe(200);
  });

  it('journals User Create, Update and Delete with the identity, and refusals as failures', async () => {
    // refused by the body's parser, before any handler ran: the identity asked for is still journaled
    expect((await create({ identity: '  refused.mail ', Email: 'not-an-address' })).body.message).toBe('Email must be in e-mail format.');
    const events = await journalOfToday(t, authorization, 'object=User');
    const created = events.find((e) => e.action === 'Create' && e.success && e.additionalFields['UserIdentity'] === 'jane.doe');
    expect(created).toMatchObject({ subject: expect.any(String), additionalFields: { UserId: expect.any(String) } });
    expect(events.some((e) => e.action === 'Create' && !e.success && e.additionalFields['UserIdentity'] === 'DUP.USER')).toBe(true);
    expect(events.some((e) => e.action === 'Create' && !e.success && e.additionalFields['UserIdentity'] === 'refused.mail')).toBe(true);
    expect(events.some((e) => e.action === 'Update' && e.success && e.additionalFields['UserIdentity'] === 'v1.user')).toBe(true);
    expect(events.some((e) => e.action === 'Delete' && e.success && e.additionalFields['UserIdentity'] === 'short.lived')).toBe(true);
    expect(events.filter((e) => e.action === 'Create' && e.success && e.additionalFields['UserIdentity'] === 'racer')).toHaveLength(1);
  });
});

describe('licenses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('refuses a user beyond the licensed count with 400 "Users quota exceeded"', async () => {
    const { authorization } = await t.newAccount({ licenses: 2 });
    const create = (identity: string) => t.as(authorization).post('/users').send({ Identity: identity });
    expect((await create('one')).status).toBe(200);
    expect((await create('two')).status).toBe(200);
    const third = await create('three');
    expect(third.status).toBe(400);
    expect(third.body).toMatchObject({ model: null, success: false, message: 'Users quota exceeded' });
    expect((await t.as(authorization).get('/users/count')).body.model).toEqual({ total: 2, limit: 2 });
    // on a full account an existing identity is still a conflict, not a quota refusal
    const duplicate = await create('ONE');
    expect(duplicate.status).toBe(409);
  });

  it('holds under parallel creations: ten distinct users on three licenses give exactly three', async () => {
    const { authorization } = await t.newAccount({ licenses: 3 });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t
          .as(authorization)
          .post('/users')
          .send({ Identity: `p${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400 && r.body.message === 'Users quota exceeded')).toHaveLength(7);
  });
});
