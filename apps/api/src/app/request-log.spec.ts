import { startTestApp, TestApp } from '../../test/testing/test-app';

/** The request log: one line per answer, those refused before any handler included. */
describe('request log', () => {
  let t: TestApp;
  let authorization: string;
  let written: string[] = [];
  const lines = () =>
    written
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['msg'] !== undefined && line['url'] !== undefined);

  beforeAll(async () => {
    t = await startTestApp({ logLevel: 'info' }, { logDestination: { write: (line: string) => void written.push(line) } });
    authorization = (await t.newAccount()).authorization;
  });
  beforeEach(() => {
    written = [];
  });
  afterAll(() => t.close());

  it.each<[string, () => PromiseLike<{ status: number; headers: Record<string, string> }>, number]>([
    ['an answer', () => t.as(authorization).get('/groups'), 200],
    ['an unknown path', () => t.http().get('/no-such-path'), 404],
    ['malformed JSON', () => t.as(authorization).post('/groups').set('Content-Type', 'application/json').send('{"name":'), 400],
    [
      'a body over 1 MiB',
      () =>
        t
          .as(authorization)
          .post('/groups')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ name: 'x'.repeat(1024 * 1024) })),
      413,
    ],
    ['missing credentials', () => t.http().get('/groups'), 401],
  ])('writes one line for %s, with its status and trace id', async (_, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    const logged = lines();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ msg: 'request completed', statusCode: status, traceId: res.headers['mf-trace-id'] });
    expect(typeof logged[0]['responseTime']).toBe('number');
  });
});
