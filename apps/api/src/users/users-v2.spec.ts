import { journalOfToday } from '../../test/testing/journal-of-today';
import { startTestApp, TestApp } from '../../test/testing/test-app';

describe('users V2', () => {
  let t: TestApp;
  let authorization: string;

  beforeAll(async () => {
    t = await startTestApp();
    authorization = (await t.newAccount()).authorization;
    for (const name of ['Staff', 'Ops']) await t.as(authorization).post('/groups').send({ name });
  });
  afterAll(() => t.close());

  const newUser = async (body: object = {}) => {
    const res = await t
      .as(authorization)
      .post('/users')
      .send({ Identity: `u${Math.random().toString(36).slice(2)}`, ...body });
    expect(res.status).toBe(200);
    return res.body.model as { id: string; identity: string };
  };
  const userById = async (id: string) => {
    const res = await t.as(authorization).get('/users?limit=1000');
    return res.body.model.find((u: { id: string }) => u.id === id);
  };

  describe('PUT /v2/users/{id}', () => {
    it('sets Identity, Name and Email from Fields and answers {id, identity, name, email}', async () => {
      const { id } = await newUser();
      const res = await t
        .as(authorization)
        .put(`/v2/users/${id}`)
        .send({
          Fields: [
            { Name: 'Identity', Value: 'v2.login' },
            { Name: 'Name', Value: 'Vee Two' },
            { Name: 'Email', Value: 'v2@example.test' },
          ],
        });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        model: { id, identity: 'v2.login', name: 'Vee Two', email: 'v2@example.test' },
        success: true,
        message: null,
      });
      const lower = await t
        .as(authorization)
        .put(`/v2/users/${id}`)
        .send({ fields: [{ name: 'name', value: 'lower' }] });
      expect(lower.body.model).toEqual({ id, identity: 'v2.login', name: 'lower', email: 'v2@example.test' });
    });

    it.each([
      ['Fields is empty', { Fields: [] }, 'Fields must not be empty.'],
      ['Fields is missing', {}, 'Fields must not be empty.'],
      [
        'a field name is not Identity, Name or Email',
        { Fields: [{ Name: 'Phone', Value: '+79161234567' }] },
        'Field name "Phone" is not one of: Identity, Name, Email.',
      ],
      [
        'a field name is repeated',
        {
          Fields: [
            { Name: 'Name', Value: 'a' },
            { Name: 'NAME', Value: 'b' },
          ],
        },
        'Field Name is given more than once.',
      ],
      ['Email is not in e-mail format', { Fields: [{ Name: 'Email', Value: 'nope' }] }, 'Email must be in e-mail format.'],
      ['Identity is empty', { Fields: [{ Name: 'Identity', Value: '' }] }, 'Identity must not be empty.'],
    ])('is rejected with 400 when %s, changing nothing', async (_, body, message) => {
      const { id, identity } = await newUser({ Name: 'Before' });
      const res = await t.as(authorization).put(`/v2/users/${id}`).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ model: null, success: false, message, traceId: expect.any(String) });
      expect(await userById(id)).toMatchObject({ identity, name: 'Before' });
    });

    it('answers 409 when the new identity is taken', async () => {
      const a = await newUser();
      const b = await newUser();
      const res = await t
        .as(authorization)
        .put(`/v2/users/${b.id}`)
        .send({ Fields: [{ Name: 'Identity', Value: a.identity.toUpperCase() }] });
      expect(res.status).toBe(409);
    });
  });

  describe('custom fields', () => {
    it('updates case-insensitively, creates missing, keeps unlisted, ignores empty names; answers {success, message, data}', async () => {
      const { id } = await newUser();
      const first = await t
        .as(authorization)
        .put(`/v2/users/${id}/customfields`)
        .send({
          fields: [
            { name: 'Department', value: 'Sales' },
            { name: 'Floor', value: '3' },
          ],
        });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ success: true, message: null, data: { customFields: { Department: 'Sales', Floor: '3' } } });

      const second = await t
        .as(authorization)
        .put(`/v2/users/${id}/customfields`)
        .send({
          Fields: [
            { Name: 'DEPARTMENT', Value: 'Support' },
            { Name: 'Badge', Value: '77' },
            { Name: '', Value: 'ignored' },
          ],
        });
      expect(second.body.data.customFields).toEqual({ Department: 'Support', Floor: '3', Badge: '77' });
      expect((await userById(id)).customFields).toEqual([
        { name: 'Badge', value: '77' },
        { name: 'Department', value: 'Support' },
        { name: 'Floor', value: '3' },
      ]);
    });

    it('deletes only listed names case-insensitively, ignores unknown and empty names, an empty list changes nothing', async () => {
      const { id, identity } = await newUser();
      await t
        .as(authorization)
        .put(`/v2/users/${id}/customfields`)
        .send({
          fields: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
            { name: 'C', value: '3' },
          ],
        });
      const del = (fieldNames: unknown) => t.as(authorization).delete(`/v2/users/${id}/customfields`).send({ FieldNames: fieldNames });

      const res = await del(['a', 'Nope', '']);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        model: {
          id,
          identity,
          customFields: [
            { name: 'B', value: '2' },
            { name: 'C', value: '3' },
          ],
        },
        success: true,
        message: null,
      });
      expect((await del([])).body.model.customFields).toHaveLength(2);
      expect((await del('B')).status).toBe(400);
      expect((await userById(id)).customFields).toEqual([
        { name: 'B', value: '2' },
        { name: 'C', value: '3' },
      ]);
    });

    it('answers 400 {message, traceId} for invalid custom field input', async () => {
      const { id } = await newUser();
      const res = await t.as(authorization).put(`/v2/users/${id}/customfields`).send({ fields: 'A=1' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: 'fields must be an array of {name, value}.', traceId: expect.any(String) });
    });

    it("a Directory user's fields change only while directory synchronization is disabled", async () => {
      const { id } = await newUser({ Source: 'Directory' });
      const apiUser = await newUser();
      const put = (userId: string) =>
        t
          .as(authorization)
          .put(`/v2/users/${userId}/customfields`)
          .send({ fields: [{ name: 'Site', value: 'HQ' }] });
      const sync = (enabled: unknown) => t.as(authorization).put('/settings/directory-sync').send({ Enabled: enabled });

      expect((await sync(true)).body).toEqual({ model: { enabled: true }, success: true, message: null });
      expect((await t.as(authorization).get('/settings/directory-sync')).body.model).toEqual({ enabled: true });
      const refused = await put(id);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Directory synchronization must be disabled before custom fields are changed.');
      const refusedDelete = await t
        .as(authorization)
        .delete(`/v2/users/${id}/customfields`)
        .send({ fieldNames: ['Site'] });
      expect(refusedDelete.status).toBe(400);
      expect((await put(apiUser.id)).status).toBe(200);

      expect((await sync('yes')).status).toBe(400);
      expect((await sync(false)).status).toBe(200);
      expect((await put(id)).status).toBe(200);
      const events = await journalOfToday(t, authorization, 'object=DirectorySync');
      expect(events.map((e) => [e.action, e.success, e.additionalFields['Enabled']])).toEqual([
        ['Update', true, 'true'],
        ['Update', false, undefined],
        ['Update', true, 'false'],
      ]);
    });

    it('an internal failure answers 200 {success: false, message} and changes nothing', async () => {
      const { id } = await newUser();
      await t.database.dataSource.query('ALTER TABLE custom_fields RENAME TO custom_fields_away');
      try {
        const res = await t
          .as(authorization)
          .put(`/v2/users/${id}/customfields`)
          .send({ fields: [{ name: 'A', value: '1' }] });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: false,
          message: 'Custom fields could not be changed. Quote the trace id when reporting it.',
          traceId: expect.any(String),
        });
        const del = await t
          .as(authorization)
          .delete(`/v2/users/${id}/customfields`)
          .send({ fieldNames: ['A'] });
        expect(del.status).toBe(200);
        expect(del.body.success).toBe(false);
      } finally {
        await t.database.dataSource.query('ALTER TABLE custom_fields_away RENAME TO custom_fields');
      }
      expect((await userById(id)).customFields).toEqual([]);
    });
  });

  describe('groups', () => {
    it('adds and removes named groups and answers {id, identity, groups}', async () => {
      const { id, identity } = await newUser();
      const add = await t
        .as(authorization)
        .post(`/v2/users/${id}/groups`)
        .send({ GroupNames: ['Staff', 'ops'] });
      expect(add.status).toBe(200);
      expect(add.body).toEqual({ model: { id, identity, groups: ['AllUsers', 'Ops', 'Staff'] }, success: true, message: null });
      const again = await t
        .as(authorization)
        .post(`/v2/users/${id}/groups`)
        .send({ groupNames: ['Staff'] });
      expect(again.body.model.groups).toEqual(['AllUsers', 'Ops', 'Staff']);
      const remove = await t
        .as(authorization)
        .delete(`/v2/users/${id}/groups`)
        .send({ GroupNames: ['STAFF'] });
      expect(remove.body.model.groups).toEqual(['AllUsers', 'Ops']);
    });

    it.each([
      ['GroupNames is empty', { GroupNames: [] }, 'GroupNames must not be empty.'],
      ['GroupNames is missing', {}, 'GroupNames must not be empty.'],
      ['a group does not exist in the account', { GroupNames: ['Staff', 'Ghosts'] }, 'Group not found: Ghosts.'],
      ['AllUsers is named', { GroupNames: ['AllUsers'] }, 'The system group AllUsers can be neither added nor removed.'],
    ])('refuses with 400 when %s, for add and remove alike', async (_, body, message) => {
      const { id } = await newUser();
      for (const method of ['post', 'delete'] as const) {
        const res = await t.as(authorization)[method](`/v2/users/${id}/groups`).send(body);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(message);
      }
      expect((await userById(id)).groups).toEqual(['AllUsers']);
    });

    it("another account's group does not exist here", async () => {
      const other = await t.newAccount();
      await t.as(other).post('/groups').send({ name: 'Theirs' });
      const { id } = await newUser();
      expect(
        (
          await t
            .as(authorization)
            .post(`/v2/users/${id}/groups`)
            .send({ GroupNames: ['Theirs'] })
        ).status,
      ).toBe(400);
    });
  });

  it('locks and unlocks a user', async () => {
    const { id } = await newUser();
    const lock = await t.as(authorization).post(`/v2/users/${id}/lock`);
    expect(lock.status).toBe(200);
    expect(lock.body).toEqual({ model: null, success: true, message: 'User locked.' });
    expect((await userById(id)).isLocked).toBe(true);
    const unlock = await t.as(authorization).post(`/v2/users/${id}/unlock`);
    expect(unlock.body).toEqual({ model: null, success: true, message: 'User unlocked.' });
    expect((await userById(id)).isLocked).toBe(false);
  });

  it('V2 phone: adds the SMS number, then replaces it; refuses a bad or missing number', async () => {
    const { id } = await newUser();
    const phone = (body: object) => t.as(authorization).post(`/v2/users/${id}/phone`).send(body);
    expect((await phone({ PhoneNumber: '+7 916 123-45-67' })).body).toEqual({ model: null, success: true, message: 'Phone number saved.' });
    expect((await userById(id)).authenticators).toEqual(['Sms']);
    await phone({ phoneNumber: '+1 650 253 0000' });
    const list = await t.as(authorization).get('/users?withPhones=true&limit=1000');
    expect(list.body.model.find((u: { id: string }) => u.id === id).phones).toEqual(['+16502530000']);
    expect((await phone({ PhoneNumber: '123' })).status).toBe(400);
    expect((await phone({})).status).toBe(400);
  });

  it('journals lock, groups, phone and custom field changes as User Update', async () => {
    const events = await journalOfToday(t, authorization, 'object=User&action=Update');
    expect(events.filter((e) => e.success).length).toBeGreaterThan(5);
    expect(events.some((e) => e.additionalFields['UserLocked'] === 'true')).toBe(true);
    expect(events.some((e) => e.additionalFields['GroupNames'] === 'Staff, Ops')).toBe(true);
  });
});
