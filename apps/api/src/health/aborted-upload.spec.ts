import { AddressInfo, connect } from 'node:net';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { DatabaseHealth } from '../http/database-health';

/**
 * Only the database's own errors may mean a database outage. A client that announces a body, sends
 * part of it and hangs up makes the HTTP body reader fail with ECONNRESET, the same errno a lost
 * database connection has: it must not be logged as an outage nor flip the outage state (which would
 * also hide the first line of a real outage).
 */
describe('an upload the client aborts', () => {
  let t: TestApp;
  const written: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ logLevel: 'info' }, { logDestination: { write: (line: string) => void written.push(line) } });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => t.close());

  /** Sends the headers and `sent` of the announced body, then closes; resolves when the server has closed too. */
  const abortedPost = (path: string, announced: number, sent: string) =>
    new Promise<void>((resolve) => {
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${announced}\r\n\r\n${sent}`,
        );
        setImmediate(() => socket.destroy());
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });

  it('is not a database outage: no outage line, the outage state untouched, the next calls answered', async () => {
    const health = t.app.get(DatabaseHealth);
    for (const path of ['/access/requests', '/access/requests/ra', '/users', '/token/refresh']) await abortedPost(path, 100, '{}');
    // the server hears of each hang-up a little later: wait until it has logged all four
    const lines = () => written.map((line) => JSON.parse(line) as { msg?: string; level?: number });
    for (let round = 0; round < 500 && lines().filter((line) => /^request aborted/.test(line.msg ?? '')).length < 4; round += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(lines().filter((line) => /^request aborted/.test(line.msg ?? ''))).toHaveLength(4);
    expect((await t.http().get('/ping')).status).toBe(200);
    const account = await t.newAccount();
    expect((await t.as(account).get('/groups')).status).toBe(200);
    expect(health.isAvailable).toBe(true);
    expect(lines().filter((line) => /database unavailable/.test(line.msg ?? ''))).toEqual([]);
    expect(lines().filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
  });
});
