import { startTestApp, TestApp } from '../../test/testing/test-app';

describe('V3 phones', () => {
  let t: TestApp;
  let authorization: string;

  beforeAll(async () => {
    t = await startTestApp();
    authorization = (await t.newAccount()).authorization;
  });
  afterAll(() => t.close());

  const newUser = async () =>
    (
      await t
        .as(authorization)
        .post('/users')
        .send({ Identity: `p${Math.random().toString(36).slice(2)}` })
    ).body.model.id as string;
  const phones = (id: string, body: unknown) =>
    t
      .as(authorization)
      .post(`/v3/users/${id}/phones`)
      .set('Content-Type', 'application/json')
      .send(body as object);
  const stored = async (id: string) => {
    const res = await t.as(authorization).get('/users?withPhones=true&limit=1000');
    const user = res.body.model.find((u: { id: string }) => u.id === id);
    return { phones: user.phones as string[], authenticators: user.authenticators as string[], isEnrolled: user.isEnrolled as boolean };
  };

  it('with no phones stored, a valid list adds the numbers (E.164) and enables SMS', async () => {
    const id = await newUser();
    expect(await stored(id)).toEqual({ phones: [], authenticators: [], isEnrolled: false });
    const res = await phones(id, { PhoneNumbers: '+7 916 123-45-67; +1 650 253 0000' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ model: null, success: true, message: 'Phone numbers saved.' });
    expect(await stored(id)).toEqual({ phones: ['+16502530000', '+79161234567'], authenticators: ['Sms'], isEnrolled: true });
  });

  it('with phones stored, the list replaces the set', async () => {
    const id = await newUser();
    await phones(id, { PhoneNumbers: '+79161234567;+16502530000' });
    await phones(id, { phoneNumbers: '+16502530000;+442079460958' });
    expect((await stored(id)).phones.sort()).toEqual(['+16502530000', '+442079460958']);
  });

  it.each([
    ['the body is null', null, expect.any(String)],
    ['PhoneNumbers is null', { PhoneNumbers: null }, 'PhoneNumbers must not be empty.'],
    ['PhoneNumbers is missing', {}, 'PhoneNumbers must not be empty.'],
    ['PhoneNumbers is empty', { PhoneNumbers: '' }, 'PhoneNumbers must not be empty.'],
    [
      'more than 5 numbers are sent',
      { PhoneNumbers: '+79161234561;+79161234562;+79161234563;+79161234564;+79161234565;+79161234566' },
      'At most 5 phone numbers can be sent.',
    ],
    ['a number is incorrect', { PhoneNumbers: '+79161234567;+7 12' }, 'Phone number +7 12 is incorrect.'],
  ])(
    'is rejected with 400 {message, traceId} when %s, keeping the stored numbers (a refused request does nothing)',
    async (_, body, message) => {
      const id = await newUser();
      await phones(id, { PhoneNumbers: '+79161234567' });
      const res = await phones(id, body === null ? 'null' : body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message, traceId: expect.any(String) });
      expect((await stored(id)).phones).toEqual(['+79161234567']);
    },
  );

  it('with nothing stored, a refused request leaves the user without phones', async () => {
    const id = await newUser();
    expect((await phones(id, { PhoneNumbers: '' })).status).toBe(400);
    expect(await stored(id)).toEqual({ phones: [], authenticators: [], isEnrolled: false });
  });

  it('exactly 5 numbers are accepted', async () => {
    const id = await newUser();
    expect((await phones(id, { PhoneNumbers: '+79161234561;+79161234562;+79161234563;+79161234564;+79161234565' })).status).toBe(200);
    expect((await stored(id)).phones).toHaveLength(5);
  });
});
