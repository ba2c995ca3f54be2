import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { postBytes } from '../../test/testing/post-bytes';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/**
 * How a body's bytes are read before any handler (http/body-parsing.ts): compressed bodies inflated,
 * with the 1 MiB bound on what they inflate to; encodings we do not know refused; the router's limits
 * no stricter than the handlers'.
 */
describe('HTTP platform: reading bodies and paths', () => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await startTestApp();
    authorization = (await t.newAccount()).authorization;
  });
  afterAll(() => t.close());

  const rawPost = (path: string, headers: Record<string, string>, bytes: Buffer) =>
    postBytes(t, path, { authorization, ...headers }, bytes);

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('reads a %s body as the same body uncompressed', async (encoding, compress) => {
    const res = await rawPost(
      '/groups',
      { 'content-encoding': encoding },
      compress(Buffer.from(JSON.stringify({ name: `zipped ${encoding}` }))),
    );
    expect(res.status).toBe(201);
    expect(res.body['model']).toMatchObject({ name: `zipped ${encoding}` });
  });

  it('refuses an encoding it does not know with 415', async () => {
    const res = await rawPost('/groups', { 'content-encoding': 'compress' }, Buffer.from('{"name":"x"}'));
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ model: null, success: false, message: 'Unsupported body encoding.', traceId: expect.any(String) });
  });

  it('answers data that does not inflate with 400, never 500', async () => {
    const res = await rawPost('/groups', { 'content-encoding': 'br' }, Buffer.from('not brotli at all'));
    expect(res.status).toBe(400);
    expect(res.body['message']).toBe('The request body could not be read.');
  });

  it('bounds what a compressed body inflates to: 1 MiB of JSON in a few KiB of gzip is a 413', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) })));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await rawPost('/groups', { 'content-encoding': 'gzip' }, bomb);
    expect(res.status).toBe(413);
    expect(res.body['message']).toBe('Request body exceeds 1 MiB.');
  });

  it('refuses a JSON body in a charset other than UTF-8 with 415', async () => {
    const res = await rawPost('/groups', { 'content-type': 'application/json; charset=latin1' }, Buffer.from('{"name":"x"}'));
    expect(res.status).toBe(415);
    expect(res.body['message']).toBe('Unsupported body encoding.');
  });

  it('reads an empty JSON body as {} (refused by the endpoint as a missing field, not as malformed JSON)', async () => {
    const res = await rawPost('/groups', {}, Buffer.alloc(0));
    expect(res.status).toBe(400);
    expect(res.body['message']).not.toBe('Malformed JSON body.');
  });

  it('routes a path parameter of 300 characters to its handler, as a short one', async () => {
    const short = await t.as(authorization).delete('/groups/not-a-uuid');
    const long = await t.as(authorization).delete(`/groups/${'x'.repeat(300)}`);
    expect(long.status).toBe(short.status);
    expect(long.body.message).toBe(short.body.message);
    expect(long.body.message).not.toMatch(/^Cannot /);
  });

  it('matches paths in any case and with a trailing slash', async () => {
    for (const path of ['/GROUPS', '/groups/', '/Groups/']) {
      const res = await t.as(authorization).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });
});
