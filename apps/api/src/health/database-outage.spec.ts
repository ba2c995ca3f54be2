import { onTestServer } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { heardEverythingAnnounced } from '../../test/testing/credentials-announcements';
import { FreezableProxy, startFreezableProxy } from '../../test/testing/freezable-proxy';
import { recordQueries } from '../../test/testing/query-counter';
import { DATABASE_RETRY_AFTER_SECONDS } from '../http/database-health';
import { DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS } from '../config/app-config';

/**
 * With PostgreSQL stopped every request was a 500 with a stack trace in the log;
 * with PostgreSQL frozen requests hung (no timeouts) while /ping answered. Wanted: 503 with
 * Retry-After, one log line per change of state, recovery without a restart.
 */
function logOf() {
  const written: string[] = [];
  const lines = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    destination: { write: (line: string) => void written.push(line) },
    count: (msg: string | RegExp) => lines().filter((line) => typeof line['msg'] === 'string' && line['msg'].match(msg)).length,
    stacks: () => lines().filter((line) => line['err'] !== undefined || line['stack'] !== undefined).length,
  };
}

/** Measured for the operators' notes (printed, never asserted: CI machines are busy). */
function stopwatch() {
  const started = performance.now();
  return () => Math.round(performance.now() - started);
}

const UNAVAILABLE = /^database unavailable/;
const AVAILABLE_AGAIN = /^database available again/;

function expectOutageAnswer(res: { status: number; headers: Record<string, string>; body: unknown }, body: Record<string, unknown>) {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
  expect(res.body).toEqual({
    ...body,
    message: 'The service is temporarily unavailable. Try again later.',
    traceId: res.headers['mf-trace-id'],
  });
}

describe('a stopped database', () => {
  let t: TestApp;
  let authorization: string;
  let resourceAuthorization: string;
  const log = logOf();
  const allowConnections = (allowed: boolean) =>
    onTestServer(async (client) => {
      await client.query(`ALTER DATABASE ${t.database.name} ALLOW_CONNECTIONS ${allowed}`);
      if (!allowed) {
        await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
          t.database.name,
        ]);
      }
    });

  beforeAll(async () => {
    t = await startTestApp(
      { logLevel: 'info' },
      { logDestination: log.destination, database: { timeouts: { connectTimeoutMs: 1000, statementTimeoutMs: 1500 } } },
    );
    const account = await t.newAccount();
    authorization = account.authorization;
    resourceAuthorization = (await t.newResource(account.account.id)).authorization;
  });
  afterAll(async () => {
    await allowConnections(true);
    await t.close();
  });

  it('answers 503 with Retry-After, logs the outage once, and recovers without a restart', async () => {
    expect((await t.as(authorization).get('/users')).status).toBe(200);
    await allowConnections(false);

    const failing = 5;
    const toFirst503 = stopwatch();
    const measured: number[] = [];
    for (let i = 0; i < failing; i++) {
      expectOutageAnswer(await t.as(authorization).get('/users'), { model: null, success: false });
      if (i === 0) measured.push(toFirst503());
    }
    // a sign-in call stays a 5xx: 200 `success: false` would be a refusal of the user
    const ra = await t.as(resourceAuthorization).post('/access/requests/ra').send({ identity: 'u', passCode: '123456' });
    expectOutageAnswer(ra, { model: null, success: false });
    const ready = await t.http().get('/health/ready');
    expectOutageAnswer(ready, {});
    expect((await t.http().get('/ping')).status).toBe(200);

    expect(log.count(UNAVAILABLE)).toBe(1);
    expect(log.count('unhandled error')).toBe(0);
    expect(log.stacks()).toBe(0);

    await allowConnections(true);
    const toRecovery = stopwatch();
    expect((await t.as(authorization).get('/users')).status).toBe(200);
    measured.push(toRecovery());
    console.log(`database outage (refused connections): first 503 after ${measured[0]} ms, first 200 ${measured[1]} ms after it came back`);
    expect((await t.http().get('/health/ready')).body).toEqual({ status: 'ready' });
    expect(log.count(UNAVAILABLE)).toBe(1);
    expect(log.count(AVAILABLE_AGAIN)).toBe(1);
  });
});

describe('a frozen database', () => {
  let t: TestApp;
  let proxy: FreezableProxy;
  let authorization: string;
  const log = logOf();

  beforeAll(async () => {
    const server = new URL(process.env['TEST_DATABASE_URL'] as string);
    proxy = await startFreezableProxy({ host: server.hostname, port: Number(server.port || 5432) });
    t = await startTestApp(
      { logLevel: 'info' },
      {
        logDestination: log.destination,
        database: {
          // the production bounds, so the time to 503 printed below is what operators get
          timeouts: { connectTimeoutMs: DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, statementTimeoutMs: DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS },
          connectVia: (url) => {
            const viaProxy = new URL(url);
            viaProxy.hostname = '127.0.0.1';
            viaProxy.port = String(proxy.port);
            return viaProxy.toString();
          },
        },
      },
    );
    authorization = (await t.newAccount()).authorization;
  });
  afterAll(async () => {
    proxy.thaw();
    await t.close();
    await proxy.close();
  });

  it('answers 503 with Retry-After instead of hanging, and recovers when the server answers again', async () => {
    expect((await t.as(authorization).get('/users')).status).toBe(200);
    proxy.freeze();

    const toFirst503 = stopwatch();
    expectOutageAnswer(await t.as(authorization).get('/users'), { model: null, success: false });
    const first503 = toFirst503();
    expectOutageAnswer(await t.http().get('/health/ready'), {});
    expect((await t.http().get('/ping')).status).toBe(200);
    expect(log.count(UNAVAILABLE)).toBe(1);
    expect(log.stacks()).toBe(0);

    proxy.thaw();
    const toRecovery = stopwatch();
    expect((await t.http().get('/health/ready')).body).toEqual({ status: 'ready' });
    const recovered = toRecovery();
    expect((await t.as(authorization).get('/users')).status).toBe(200);
    expect(log.count(AVAILABLE_AGAIN)).toBe(1);
    console.log(`database outage (frozen server): first 503 after ${first503} ms, ready ${recovered} ms after it answered again`);
  });

  it('waits out one statement timeout per call, not two: a timed-out transaction is not rolled back over the frozen connection', async () => {
    const { account } = await t.newAccount();
    const vpn = await t.newResource(account.id, 'VPN');
    await heardEverythingAnnounced(t.app, t.database.dataSource);
    const ra = () => t.as(vpn).post('/access/requests/ra').send({ identity: 'nobody', passCode: '123456' });
    // the resource's credentials verified once, so the frozen call's first statement is its transaction's
    expect((await ra()).status).toBe(200);
    proxy.freeze();
    const toAnswer = stopwatch();
    const statements = await recordQueries(async () => expectOutageAnswer(await ra(), { model: null, success: false }));
    const answered = toAnswer();
    proxy.thaw();
    // a ROLLBACK sent on the timed-out connection waited a second statement timeout before the 503
    expect(statements).toEqual(['START TRANSACTION']);
    expect((await ra()).status).toBe(200);
    console.log(`frozen database: /ra answered 503 after ${answered} ms (statement timeout ${DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS} ms)`);
  });
});
