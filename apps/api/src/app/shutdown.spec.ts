import { Agent, request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import pino from 'pino';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { shutDown } from './shutdown';

type Answer = { status: number; connection: string | undefined; body: string } | { socketError: string };

function get(port: number, path: string, agent: Agent, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent, method: body ? 'POST' : 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ socketError: error.code ?? error.message }));
    req.end(body);
  });
}

/**
 * Under keep-alive load, requests started after SIGTERM still got 200. The real
 * shutdown function main.ts runs on SIGTERM, on an app listening on a port, with clients that keep
 * sending on kept-alive sockets and one request in flight held by a row lock.
 */
describe('shutdown under keep-alive load', () => {
  let t: TestApp;

  beforeAll(async () => {
    // a statement may wait for the lock as long as the test holds it
    t = await startTestApp({}, { database: { timeouts: { connectTimeoutMs: 1000, statementTimeoutMs: 60_000 } } });
  });
  afterAll(() => t.database.drop());

  it('answers requests sent after it started with 503 and Connection: close, finishes the one in flight, and resolves', async () => {
    const account = await t.newAccount();
    const resource = await t.newResource(account.account.id);
    const identity = 'slow.user';
    expect((await t.as(account).post('/users').send({ Identity: identity })).status).toBe(200);
    await t.app.listen(0, '127.0.0.1');
    const port = (t.app.getHttpServer().address() as AddressInfo).port;

    let closeStarted = false;
    let stop = false;
    const afterClose: Answer[] = [];
    let beforeClose = 0;
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const loop = async () => {
      while (!stop) {
        const sentAfterClose = closeStarted;
        const answer = await get(port, '/ping', agent);
        if (sentAfterClose) afterClose.push(answer);
        else if ('status' in answer && answer.status === 200) beforeClose++;
        if (sentAfterClose && ('socketError' in answer || answer.status !== 200)) {
          // this client was told to go away; it tries a few more times, as a pool of clients would
          if (afterClose.length > 200) stop = true;
        }
      }
    };
    const loops = [loop(), loop(), loop(), loop()];
    while (beforeClose < 40) await new Promise((resolve) => setImmediate(resolve));

    // the slow request: its user's row is locked by another transaction until the test lets go
    let release: () => void = () => undefined;
    const lockHeld = new Promise<void>((resolveHeld) => {
      void (async () => {
        const { Client } = await import('pg');
        const client = new Client({ connectionString: t.database.url });
        await client.connect();
        await client.query('BEGIN');
        await client.query('SELECT id FROM users WHERE identity = $1 FOR UPDATE', [identity]);
        resolveHeld();
        await new Promise<void>((resolve) => (release = resolve));
        await client.query('COMMIT');
        await client.end();
      })();
    });
    await lockHeld;
    const slowAgent = new Agent({ keepAlive: false });
    const slow = get(
      port,
      '/access/requests/ra',
      slowAgent,
      { authorization: resource.authorization, 'content-type': 'application/json' },
      JSON.stringify({ identity, passCode: '123456' }),
    );
    const { Client } = await import('pg');
    const observer = new Client({ connectionString: t.database.url });
    await observer.connect();
    let waiting = 0;
    while (waiting === 0) {
      const rows = await observer.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      waiting = rows.rows[0].n;
    }

    closeStarted = true;
    let closed = false;
    const closing = shutDown(t.app, { timeoutMs: 60_000, log: pino({ level: 'silent' }) }).then((outcome) => {
      closed = true;
      return outcome;
    });
    // the clients keep sending while the slow request holds the close open
    while (afterClose.length < 50) await new Promise((resolve) => setImmediate(resolve));
    // still open: it waits for the request in flight
    expect(closed).toBe(false);
    release();
    const slowAnswer = await slow;
    expect(await closing).toBe('complete');
    stop = true;
    await Promise.all(loops);
    await observer.end();
    agent.destroy();

    expect(slowAnswer).toMatchObject({ status: 200 });
    expect(JSON.parse((slowAnswer as { body: string }).body).model.status).toBe('Denied');
    expect(afterClose.length).toBeGreaterThanOrEqual(50);
    const kinds = new Map<string, number>();
    for (const answer of afterClose) {
      const kind = 'socketError' in answer ? `socket ${answer.socketError}` : `${answer.status} connection=${answer.connection}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    process.stdout.write(`shutdown test: ${afterClose.length} requests after close started: ${JSON.stringify([...kinds])}\n`);
    for (const kind of kinds.keys()) expect(kind).toMatch(/^(503 connection=close|socket \w+)$/);
  });
});
