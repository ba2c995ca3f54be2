import { startTestApp, TestApp } from '../../test/testing/test-app';

/**
 * Found by the fuzz run: paths Fastify's router refuses before any hook answered with
 * Fastify's own `{error, code, message, statusCode}` and no trace id. Every error body must be
 * `{message, traceId}`, and the trace id is echoed in `mf-trace-id`.
 */
describe('refusals of the router itself', () => {
  let t: TestApp;
  let auth: string;
  beforeAll(async () => {
    t = await startTestApp();
    auth = (await t.newAccount()).authorization;
  });
  afterAll(() => t.close());

  it.each(['/groups/%zz', '/groups/%C0%AF', '/users/%ED%A0%80/authenticators', '/access/%E0%A4%A', '/%FF'])(
    '%s (not UTF-8 once decoded) is 400 {message, traceId}',
    async (path) => {
      const res = await t.as(auth).delete(path).set('mf-trace-id', 'fuzz-trace');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'The path is not valid percent-encoded UTF-8.', traceId: 'fuzz-trace' });
      expect(res.headers['mf-trace-id']).toBe('fuzz-trace');
    },
  );

  it('a path parameter over 2 048 characters is 414 {message, traceId}', async () => {
    const res = await t.as(auth).get(`/users/${'a'.repeat(2049)}/authenticators`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ message: 'A path parameter is too long.', traceId: expect.any(String) });
    expect(res.headers['mf-trace-id']).toBe(res.body.traceId);
  });
});
