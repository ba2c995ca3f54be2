import { journalOfToday } from '../../test/testing/journal-of-today';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';

/** GET/POST/PUT/DELETE /ip-lists, their validation, journal and account scoping. */
describe('IP lists API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.set(TEST_NOW));

  async function setup() {
    const { account, authorization, apiKey } = await t.newAccount();
    const vpn = await t.newResource(account.id, 'VPN');
    const portal = await t.newResource(account.id, 'Portal');
    const api = t.as(authorization);
    const journal = () => journalOfToday(t, authorization, 'object=IpList');
    return { account, apiKey, vpn, portal, api, journal };
  }

  const OFFICE = { name: 'Office', ranges: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'], action: 'Bypass', resources: [] as string[] };

  it('creates, lists, replaces and deletes a list, each change journaled with IpList and its action', async () => {
    const s = await setup();
    const created = await s.api.post('/ip-lists').send(OFFICE);
    expect(created.status).toBe(201);
    const id = created.body.model.id;
    expect(created.body).toEqual({ model: { id, ...OFFICE }, success: true, message: null });
    expect((await s.api.get('/ip-lists')).body).toEqual({
      model: { data: [{ id, ...OFFICE }], offset: 0, limit: 100, totalElements: 1 },
      success: true,
      message: null,
    });

    // keys in any case; the whole list is replaced
    const replaced = await s.api.put(`/ip-lists/${id}`).send({
      NAME: 'Lab',
      Ranges: ['198.51.100.0/24'],
      ACTION: 'Deny',
      Resources: [s.vpn.resource.id],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.model).toEqual({ id, name: 'Lab', ranges: ['198.51.100.0/24'], action: 'Deny', resources: [s.vpn.resource.id] });
    expect((await s.api.get('/ip-lists')).body.model.data).toEqual([replaced.body.model]);
    // replaced again without resources: every resource
    expect((await s.api.put(`/ip-lists/${id}`).send({ ...OFFICE, name: 'Lab' })).body.model.resources).toEqual([]);

    const deleted = await s.api.delete(`/ip-lists/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ model: null, success: true, message: 'IP list deleted.' });
    expect((await s.api.get('/ip-lists')).body.model.data).toEqual([]);

    const events = await s.journal();
    expect(events.map((e) => [e.object, e.action, e.success])).toEqual([
      ['IpList', 'Create', true],
      ['IpList', 'Update', true],
      ['IpList', 'Update', true],
      ['IpList', 'Delete', true],
    ]);
    expect(events[0].subject).toBe(s.apiKey);
    expect(events[0].additionalFields).toMatchObject({
      IpListId: id,
      IpList: 'Office',
      IpListAction: 'Bypass',
      IpListRanges: '3',
      IpListResources: 'All',
    });
    expect(events[1].additionalFields).toMatchObject({
      IpListId: id,
      IpList: 'Lab',
      IpListAction: 'Deny',
      IpListResources: s.vpn.resource.id,
    });
    expect(events[3].additionalFields).toMatchObject({ IpListId: id, IpList: 'Lab' });
  });

  it('refuses with 400 and a message naming the culprit, journaled as a failure', async () => {
    const s = await setup();
    const refusal = async (body: unknown) => {
      const res = await s.api.post('/ip-lists').send(body as object);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ model: null, success: false });
      return res.body.message;
    };
    expect(await refusal({ ...OFFICE, ranges: ['10.0.0.0/8', 'not-an-ip'] })).toBe(
      'ranges[1] "not-an-ip" is not an IP address or CIDR range.',
    );
    expect(await refusal({ ...OFFICE, ranges: ['10.0.0.0/33'] })).toBe('ranges[0] "10.0.0.0/33" is not an IP address or CIDR range.');
    expect(await refusal({ ...OFFICE, ranges: ['10.0.0.1/8'] })).toBe('ranges[0] "10.0.0.1/8" has host bits set; did you mean 10.0.0.0/8?');
    expect(await refusal({ ...OFFICE, ranges: ['2001:db8::1/32'] })).toBe(
      'ranges[0] "2001:db8::1/32" has host bits set; did you mean 2001:db8::/32?',
    );
    const many = Array.from({ length: 1001 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
    expect(await refusal({ ...OFFICE, ranges: many })).toBe('ranges holds 1001 ranges; a list holds at most 1000.');
    expect((await s.api.post('/ip-lists').send({ ...OFFICE, name: 'Big', ranges: many.slice(0, 1000) })).status).toBe(201);
    expect(await refusal({ ...OFFICE, action: 'Allow' })).toBe('action must be "Bypass" or "Deny".');
    expect(await refusal({ ...OFFICE, name: '' })).toBe('name must be a non-empty string.');

    // a resource of another account, an unknown one, and not an id at all
    const other = await setup();
    expect(await refusal({ ...OFFICE, resources: [s.vpn.resource.id, other.vpn.resource.id] })).toBe(
      `resources[1] "${other.vpn.resource.id}" is not a resource of this account.`,
    );
    expect(await refusal({ ...OFFICE, resources: ['00000000-0000-4000-8000-000000000000'] })).toBe(
      'resources[0] "00000000-0000-4000-8000-000000000000" is not a resource of this account.',
    );
    expect(await refusal({ ...OFFICE, resources: ['VPN'] })).toBe('resources[0] "VPN" is not a resource of this account.');
    expect((await s.api.get('/ip-lists')).body.model.data.map((l: { name: string }) => l.name)).toEqual(['Big']);

    // a name is unique in the account, in any case
    const taken = await s.api.post('/ip-lists').send({ ...OFFICE, name: 'BIG' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('An IP list named BIG already exists.');

    const failures = (await s.journal()).filter((e) => !e.success);
    expect(failures.length).toBeGreaterThanOrEqual(9);
    expect(failures.every((e) => e.object === 'IpList' && e.action === 'Create')).toBe(true);
  });

  it('an unknown id is 404, as elsewhere in the API', async () => {
    const s = await setup();
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const put = await s.api.put(`/ip-lists/${id}`).send(OFFICE);
      expect([put.status, put.body.message]).toEqual([404, 'IP list not found.']);
      expect((await s.api.delete(`/ip-lists/${id}`)).status).toBe(404);
    }
  });

  it('scopes every query to the account: another account can neither see, replace nor delete a list', async () => {
    const a = await setup();
    const b = await setup();
    const id = (await a.api.post('/ip-lists').send(OFFICE)).body.model.id;
    expect((await b.api.get('/ip-lists')).body.model.data).toEqual([]);
    expect((await b.api.put(`/ip-lists/${id}`).send({ ...OFFICE, name: 'Taken over' })).status).toBe(404);
    expect((await b.api.delete(`/ip-lists/${id}`)).status).toBe(404);
    // the same name is free in another account
    expect((await b.api.post('/ip-lists').send(OFFICE)).status).toBe(201);
    expect((await a.api.get('/ip-lists')).body.model.data).toEqual([{ id, ...OFFICE }]);
  });

  it('refuses to delete a resource a list names (the list would otherwise apply to every resource)', async () => {
    const s = await setup();
    const id = (await s.api.post('/ip-lists').send({ ...OFFICE, resources: [s.portal.resource.id] })).body.model.id;
    const refused = await s.api.delete(`/resources/${s.portal.resource.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('The resource is named by the IP list Office: remove it from the list first.');
    await s.api.put(`/ip-lists/${id}`).send({ ...OFFICE, resources: [s.vpn.resource.id] });
    expect((await s.api.delete(`/resources/${s.portal.resource.id}`)).status).toBe(200);
  });
});
