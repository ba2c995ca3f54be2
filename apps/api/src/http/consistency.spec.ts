import { outboxMails } from '../../test/testing/outbox';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/**
 * What a newcomer expects to be alike across the API: lists are paged, our own creations answer 201
 * (the specification's calls 200, as their clients expect), a missing field is one plain sentence, and
 * the mail language is taken where the other calls take it.
 */
describe('one API, one way', () => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await startTestApp();
    authorization = (await t.newAccount()).authorization;
  });
  afterAll(() => t.close());

  const get = (path: string) => t.as(authorization).get(path);
  const post = (path: string, body: object = {}) => t.as(authorization).post(path).send(body);
  const put = (path: string, body: object) => t.as(authorization).put(path).send(body);

  it('pages GET /ip-lists like /groups and /resources: offset, limit, totalElements, in a stable order', async () => {
    for (const name of ['One', 'Two', 'Three']) {
      expect((await post('/ip-lists', { name, ranges: ['192.0.2.1'], action: 'Deny' })).status).toBe(201);
    }
    const all = await get('/ip-lists');
    expect(all.body.model).toMatchObject({ offset: 0, limit: 100, totalElements: 3 });
    const page = await get('/ip-lists?offset=1&limit=1');
    expect(page.status).toBe(200);
    expect(page.body.model).toEqual({ data: [all.body.model.data[1]], offset: 1, limit: 1, totalElements: 3 });
    for (const list of ['/groups', '/resources', '/ip-lists']) {
      expect(Object.keys((await get(list)).body.model).sort()).toEqual(['data', 'limit', 'offset', 'totalElements']);
      expect([(await get(`${list}?limit=1001`)).status, (await get(`${list}?offset=-1`)).status]).toEqual([400, 400]);
    }
  });

  it('answers 201 for a record our management API creates, 200 for every call of the specification', async () => {
    expect((await post('/groups', { name: 'VPN users' })).status).toBe(201);
    expect((await post('/resources', { name: 'VPN' })).status).toBe(201);
    expect((await post('/ip-lists', { name: 'Office', ranges: ['10.0.0.0/8'], action: 'Bypass' })).status).toBe(201);
    // not a creation: an action on what exists
    expect((await post('/settings/identity-format/apply')).status).toBe(200);
    // the specification's calls, read by clients that check `success`
    const user = await post('/users', { Identity: 'jane' });
    expect(user.status).toBe(200);
    expect((await post(`/users/${user.body.model.id}/enroll`, {})).status).toBe(200);
    expect((await post('/admins', { email: 'second@acme.test', name: 'Second', role: 'Admin' })).status).toBe(200);
  });

  it.each(['/groups', '/resources'])('answers a PUT %s/{id} without name with one sentence', async (collection) => {
    const created = await post(collection, { name: `Renamed ${collection}` });
    const res = await put(`${collection}/${created.body.model.id}`, {});
    expect([res.status, res.body.message]).toEqual([400, 'name is required.']);
    const wrongType = await put(`${collection}/${created.body.model.id}`, { name: 5 });
    expect([wrongType.status, wrongType.body.message]).toEqual([400, 'name must be a string.']);
  });

  it('takes Language beside Identity on POST /users, as POST /users/{id}/enroll takes it; EnrollmentLink.Language wins', async () => {
    const mails = () => outboxMails(t).length;
    const before = mails();
    const english = await post('/users', { Identity: 'ann', Email: 'ann@acme.test', Language: 'en', EnrollmentLink: { To: 'email' } });
    expect(english.status).toBe(200);
    expect(outboxMails(t).slice(before)).toEqual([expect.stringContaining('set up your second factor')]);
    const both = await post('/users', {
      Identity: 'bob',
      Email: 'bob@acme.test',
      Language: 'en',
      EnrollmentLink: { To: 'email', Language: 'ru' },
    });
    expect(both.status).toBe(200);
    expect(outboxMails(t).slice(before + 1)).toEqual([expect.not.stringContaining('set up your second factor')]);
    const wrong = await post('/users', { Identity: 'cy', Language: 'de' });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'Language must be "ru" or "en".']);
  });
});
