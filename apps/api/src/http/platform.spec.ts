import { randomUUID } from 'node:crypto';
import { createServer, request as request_ } from 'node:http';
import { startTestApp, TestApp } from '../../test/testing/test-app';

describe('HTTP platform', () => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await startTestApp();
    authorization = (await t.newAccount()).authorization;
  });
  afterAll(() => t.close());

  it('answers malformed JSON with 400 and {model: null, success: false, message, traceId}', async () => {
    const res = await t.as(authorization).post('/groups').set('Content-Type', 'application/json').send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ model: null, success: false, message: 'Malformed JSON body.', traceId: expect.any(String) });
  });

  it('answers the administrator paths with the plain {message, traceId} body', async () => {
    const res = await t.as(authorization).get('/v1/no-such-path');
    expect(res.status).toBe(404);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'traceId']);
  });

  it('answers a JSON array, string or null body with 400, never 500', async () => {
    for (const body of ['[]', '"x"', 'null', '42']) {
      const res = await t.as(authorization).post('/groups').set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(400);
    }
  });

  it('answers a body over 1 MiB with 413', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    const res = await t.as(authorization).post('/groups').set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Request body exceeds 1 MiB.');
  });

  it('answers a chunked body over 1 MiB, without Content-Length, with 413 too', async () => {
    // a server of its own on the same fastify router: closing it leaves the shared one alone
    const fastify = t.app.getHttpAdapter().getInstance();
    const server = createServer((req, res) => fastify.routing(req, res)).listen(0);
    try {
      const port = (server.address() as { port: number }).port;
      const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request_(
          {
            host: '127.0.0.1',
            port,
            path: '/groups',
            method: 'POST',
            headers: { authorization, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          },
          (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write('{"name":"');
        for (let i = 0; i < 17; i += 1) req.write('x'.repeat(64 * 1024));
        req.end('"}');
      });
      expect(status.status).toBe(413);
      expect(JSON.parse(status.body).message).toBe('Request body exceeds 1 MiB.');
    } finally {
      server.close();
    }
  });

  it('uses the caller mf-trace-id as trace id and echoes it', async () => {
    const traceId = randomUUID();
    const res = await t.as(authorization).get('/groups/not-a-uuid').set('mf-trace-id', traceId);
    expect(res.headers['mf-trace-id']).toBe(traceId);
    expect(res.body.traceId).toBe(traceId);
  });

  it.each([
    ['md:6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e'],
    ['rds-6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e'],
    ['!"#$%&()*+,/:;<=>?@[\\]^`{|}~'],
    ['x'.repeat(128)],
  ])('keeps any client mf-trace-id of 1-128 visible ASCII characters: %s', async (traceId) => {
    const res = await t.as(authorization).get('/groups/not-a-uuid').set('mf-trace-id', traceId);
    expect(res.headers['mf-trace-id']).toBe(traceId);
    expect(res.body.traceId).toBe(traceId);
  });

  it.each([['x'.repeat(129)], ['two words'], ['tab\there']])(
    'replaces an mf-trace-id that is too long or not visible ASCII with a UUID: %j',
    async (traceId) => {
      const res = await t.as(authorization).get('/groups/not-a-uuid').set('mf-trace-id', traceId);
      expect(res.headers['mf-trace-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(res.body.traceId).toBe(res.headers['mf-trace-id']);
    },
  );

  it('generates a UUID trace id on every response when none is given', async () => {
    const res = await t.http().get('/ping');
    expect(res.headers['mf-trace-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('matches input keys case-insensitively', async () => {
    for (const [key, name] of [
      ['name', 'lower'],
      ['Name', 'Pascal'],
      ['NAME', 'UPPER'],
    ]) {
      const res = await t
        .as(authorization)
        .post('/groups')
        .send({ [key]: name });
      expect(res.status).toBe(201);
      expect(res.body.model.name).toBe(name);
    }
  });

  it.each([['-1'], ['1.5'], ['abc'], ['1001']])('refuses limit=%s with 400', async (limit) => {
    const res = await t.as(authorization).get(`/groups?limit=${limit}`);
    expect(res.status).toBe(400);
  });

  it('marks responses as not cacheable', async () => {
    const res = await t.as(authorization).get('/groups');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
