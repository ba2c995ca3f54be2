import { AccountId } from '@twofold/domain';
import { JournalWriter } from '@twofold/journal';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';

const YESTERDAY = '2026-05-19';

describe('GET /journal', () => {
  let t: TestApp;
  let accountId: AccountId;
  let authorization: string;
  let apiKey: string;

  async function eventAt(iso: string, object: string, action: string, success: boolean, subject = 'someone', id = accountId) {
    t.clock.set(new Date(iso));
    await new JournalWriter(t.db, t.clock).record(id, {
      object: object as never,
      action: action as never,
      subject,
      success,
      additionalFields: { UserIdentity: 'u1' },
    });
  }

  const get = (query: string) => t.as(authorization).get(`/journal?${query}`);

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    ({ authorization, apiKey } = account);
    accountId = account.account.id;
    const other = await t.newAccount();
    await eventAt('2026-05-18T23:59:59.999Z', 'User', 'Create', true); // the day before
    await eventAt('2026-05-19T00:00:00.000Z', 'User', 'Create', true, 'alice');
    await eventAt('2026-05-19T08:00:00.000Z', 'User', 'Delete', false, 'bob');
    await eventAt('2026-05-19T12:00:00.000Z', 'Group', 'Create', true, 'alice');
    await eventAt('2026-05-19T23:59:59.999Z', 'Resource', 'Delete', true, 'carol');
    await eventAt('2026-05-20T00:00:00.000Z', 'User', 'Create', true); // today
    await eventAt('2026-05-19T10:00:00.000Z', 'User', 'Create', true, 'alice', other.account.id);
    t.clock.set(TEST_NOW);
  });
  afterAll(() => t.close());

  it('returns one UTC day of the caller account in the journal envelope, oldest first', async () => {
    const res = await get(`eventDate=${YESTERDAY}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      model: { success: true, message: null, data: expect.any(Array), offset: 0, limit: 100, totalElements: 4 },
    });
    expect(res.body.model.data.map((e: { eventDate: string }) => e.eventDate)).toEqual([
      '2026-05-19T00:00:00.000Z',
      '2026-05-19T08:00:00.000Z',
      '2026-05-19T12:00:00.000Z',
      '2026-05-19T23:59:59.999Z',
    ]);
    expect(res.body.model.data[0]).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      eventDate: '2026-05-19T00:00:00.000Z',
      object: 'User',
      subject: 'alice',
      action: 'Create',
      success: true,
      additionalFields: { UserIdentity: 'u1' },
    });
  });

  it.each([
    ['', 'eventDate is required.'],
    ['eventDate=2026-05-20', 'eventDate must be a past day, not today or later.'],
    ['eventDate=2026-05-21', 'eventDate must be a past day, not today or later.'],
    ['eventDate=19.05.2026', 'eventDate must be a date in the format yyyy-mm-dd.'],
    ['eventDate=2026-02-30', 'eventDate is not a valid date.'],
    [`eventDate=${YESTERDAY}&eventDate=2026-05-18`, 'eventDate must be given once, as yyyy-mm-dd.'],
    [`eventDate=${YESTERDAY}&success=yes`, 'success must be true or false.'],
    [`eventDate=${YESTERDAY}&limit=1001`, 'limit must not exceed 1000.'],
    [`eventDate=${YESTERDAY}&offset=-1`, 'offset must be a non-negative integer.'],
  ])('refuses "%s" with 400: %s', async (query, message) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ model: null, success: false, message, traceId: expect.any(String) });
  });

  it('judges "today" by the API clock: just after UTC midnight yesterday becomes allowed', async () => {
    t.clock.set(new Date('2026-05-19T23:59:59.000Z'));
    expect((await get(`eventDate=${YESTERDAY}`)).status).toBe(400);
    t.clock.set(new Date('2026-05-20T00:00:00.000Z'));
    expect((await get(`eventDate=${YESTERDAY}`)).status).toBe(200);
    t.clock.set(TEST_NOW);
  });

  it('filters by repeated action and object', async () => {
    const byAction = await get(`eventDate=${YESTERDAY}&action=Create&action=Delete`);
    expect(byAction.body.model.totalElements).toBe(4);
    const byObject = await get(`eventDate=${YESTERDAY}&object=User&object=Group`);
    expect(byObject.body.model.data.map((e: { object: string }) => e.object)).toEqual(['User', 'User', 'Group']);
    const both = await get(`eventDate=${YESTERDAY}&object=User&action=Delete`);
    expect(both.body.model.data.map((e: { subject: string }) => e.subject)).toEqual(['bob']);
  });

  it('filters by success, repeatable', async () => {
    expect((await get(`eventDate=${YESTERDAY}&success=false`)).body.model.data.map((e: { subject: string }) => e.subject)).toEqual(['bob']);
    expect((await get(`eventDate=${YESTERDAY}&success=true`)).body.model.totalElements).toBe(3);
    expect((await get(`eventDate=${YESTERDAY}&success=true&success=false`)).body.model.totalElements).toBe(4);
  });

  it('filters by subject', async () => {
    const res = await get(`eventDate=${YESTERDAY}&subject=alice`);
    expect(res.body.model.data.map((e: { object: string }) => e.object)).toEqual(['User', 'Group']);
  });

  it('pages with offset and limit and reports the total', async () => {
    const res = await get(`eventDate=${YESTERDAY}&offset=1&limit=2`);
    expect(res.body.model).toMatchObject({ offset: 1, limit: 2, totalElements: 4 });
    expect(res.body.model.data.map((e: { subject: string }) => e.subject)).toEqual(['bob', 'alice']);
  });

  it('reads parameter names case-insensitively', async () => {
    const res = await get(`EventDate=${YESTERDAY}&Subject=carol`);
    expect(res.status).toBe(200);
    expect(res.body.model.totalElements).toBe(1);
  });

  it('journals the account key as subject of API calls', async () => {
    await t.as(authorization).post('/groups').send({ name: 'Journaled' });
    t.clock.set(new Date('2026-05-21T10:00:00.000Z'));
    const res = await get('eventDate=2026-05-20&object=Group');
    t.clock.set(TEST_NOW);
    expect(res.body.model.data).toEqual([expect.objectContaining({ object: 'Group', action: 'Create', subject: apiKey, success: true })]);
  });
});
