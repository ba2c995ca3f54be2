import { journalOfToday } from '../../test/testing/journal-of-today';
import { startTestApp, TestApp } from '../../test/testing/test-app';

describe('groups', () => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await startTestApp();
    authorization = (await t.newAccount()).authorization;
  });
  afterAll(() => t.close());

  const journal = () => journalOfToday(t, authorization, 'object=Group');

  it('creates, lists, renames and deletes a group, each journaled', async () => {
    const created = await t.as(authorization).post('/groups').send({ name: 'Staff' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ model: { id: expect.any(String), name: 'Staff', system: false }, success: true, message: null });
    const id = created.body.model.id;

    const list = await t.as(authorization).get('/groups');
    expect(list.body.model).toMatchObject({ offset: 0, limit: 100, totalElements: 2 });
    expect(list.body.model.data.map((g: { name: string }) => g.name)).toEqual(['AllUsers', 'Staff']);

    const renamed = await t.as(authorization).put(`/groups/${id}`).send({ Name: 'Team' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.model.name).toBe('Team');

    const deleted = await t.as(authorization).delete(`/groups/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.success).toBe(true);

    const events = await journal();
    expect(events.map((e) => [e.action, e.success])).toEqual([
      ['Create', true],
      ['Update', true],
      ['Delete', true],
    ]);
    expect(events[0].additionalFields).toMatchObject({ GroupName: 'Staff', GroupId: id });
  });

  it('protects AllUsers: no rename, no delete, no second one; refusals are journaled as failures', async () => {
    const list = await t.as(authorization).get('/groups');
    const allUsers = list.body.model.data.find((g: { system: boolean }) => g.system);
    expect((await t.as(authorization).put(`/groups/${allUsers.id}`).send({ name: 'Everyone' })).status).toBe(400);
    expect((await t.as(authorization).delete(`/groups/${allUsers.id}`)).status).toBe(400);
    expect((await t.as(authorization).post('/groups').send({ name: 'allusers' })).status).toBe(400);
    const events = await journal();
    expect(events.filter((e) => !e.success).map((e) => e.action)).toEqual(['Update', 'Delete', 'Create']);
  });

  it('answers 409 for a duplicate name, compared case-insensitively', async () => {
    expect((await t.as(authorization).post('/groups').send({ name: 'Ops' })).status).toBe(201);
    const dup = await t.as(authorization).post('/groups').send({ name: 'OPS' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A group named OPS already exists.');
  });

  it('answers 400 for a missing or empty name', async () => {
    expect((await t.as(authorization).post('/groups').send({})).status).toBe(400);
    expect((await t.as(authorization).post('/groups').send({ name: '  ' })).status).toBe(400);
  });

  it("answers 404 for another account's group and for ids that are not UUIDs", async () => {
    const other = await t.newAccount();
    const theirs = await t.as(other).post('/groups').send({ name: 'Theirs' });
    const id = theirs.body.model.id;
    expect((await t.as(authorization).put(`/groups/${id}`).send({ name: 'Mine' })).status).toBe(404);
    expect((await t.as(authorization).delete(`/groups/${id}`)).status).toBe(404);
    expect((await t.as(authorization).delete('/groups/123')).status).toBe(404);
    const stillThere = await t.as(other).get('/groups');
    expect(stillThere.body.model.data.map((g: { name: string }) => g.name)).toContain('Theirs');
  });

  it('judges the body before the path, and journals the id a refused path names, as sent', async () => {
    const badBody = await t.as(authorization).put('/groups/not-a-uuid').send({ name: 5 });
    expect([badBody.status, badBody.body.message]).toEqual([400, 'name must be a string.']);
    const badPath = await t.as(authorization).put('/groups/not-a-uuid').send({ name: 'Mine' });
    expect([badPath.status, badPath.body.message]).toEqual([404, 'Group not found.']);
    expect((await t.as(authorization).delete('/groups/NOT-A-UUID')).status).toBe(404);
    const refused = (await journal()).filter((e) => ['not-a-uuid', 'NOT-A-UUID'].includes(e.additionalFields['GroupId']));
    expect(refused.map((e) => [e.action, e.success, e.additionalFields['GroupId']])).toEqual([
      ['Update', false, 'not-a-uuid'],
      ['Update', false, 'not-a-uuid'],
      ['Delete', false, 'NOT-A-UUID'],
    ]);
  });
});
