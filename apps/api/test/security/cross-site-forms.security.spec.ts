import { startTestApp, TestApp } from '../testing/test-app';

/**
 * The JSON API takes JSON only. A form of another site can make a browser POST urlencoded, multipart
 * or text/plain bodies with the Basic credentials it cached for this origin (the 401 challenge invites
 * it to cache them), so those bodies were a way to call the API cross-site; without a body too (a
 * text/plain form with no field, on a route that needs no body). The pages' own forms still post.
 */
describe('forms and other non-JSON bodies on the JSON API', () => {
  let t: TestApp;
  let authorization: string;
  let userId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    authorization = account.authorization;
    userId = (await t.as(authorization).post('/users').send({ Identity: 'jane' })).body.model.id;
  });
  afterAll(() => t.close());

  it.each([
    ['a urlencoded form', 'application/x-www-form-urlencoded', 'Identity=mallory'],
    ['a text/plain form', 'text/plain', '{"Identity":"mallory", "x":"=1"}'],
    [
      'a multipart form',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="Identity"\r\n\r\nmallory\r\n--x--\r\n',
    ],
  ])('refuses %s with 415, and creates nothing', async (_name, type, body) => {
    const res = await t.as(authorization).post('/users').set('Content-Type', type).send(body);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      model: null,
      success: false,
      message: 'Only application/json request bodies are accepted.',
      traceId: expect.any(String),
    });
    expect((await t.as(authorization).get('/users').query({ identity: 'mallory' })).body.model).toEqual([]);
  });

  it('refuses an empty text/plain form on a route that needs no body: the user stays unlocked', async () => {
    const res = await t.as(authorization).post(`/v2/users/${userId}/lock`).set('Content-Type', 'text/plain').send('');
    expect(res.status).toBe(415);
    const user = (await t.as(authorization).get('/users').query({ identity: 'jane' })).body.model[0];
    expect(user.isLocked).toBe(false);
  });

  it('still takes JSON, and calls without a body or a type', async () => {
    expect((await t.as(authorization).post(`/v2/users/${userId}/lock`)).status).toBe(200);
    expect(
      (await t.as(authorization).post(`/v2/users/${userId}/unlock`).set('Content-Type', 'application/json; charset=utf-8').send('{}'))
        .status,
    ).toBe(200);
  });
});
