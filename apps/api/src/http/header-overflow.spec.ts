import { request } from 'node:http';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/**
 * Headers over Node's limit are refused by the HTTP parser itself, before any
 * route or hook. The answer must still be a JSON error a client can read (it was Node's bare 431).
 */
describe('headers too large', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => t.close());

  it('is 431 with a JSON body carrying a message and a trace id', async () => {
    const port = (t.app.getHttpServer().address() as { port: number }).port;
    const answer = await new Promise<{ status?: number; type?: string; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/ping', headers: { 'x-padding': 'a'.repeat(20_000) } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(answer.type).toMatch(/^application\/json/);
    // Every error body has a traceId; the fuzz run found this one without
    expect(JSON.parse(answer.body)).toEqual({ message: 'Request headers too large.', traceId: expect.any(String) });
  });
});
