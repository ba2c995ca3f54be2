import { randomBytes } from 'node:crypto';
import { Agent, ClientRequest, request as httpRequest } from 'node:http';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { basic, cleanEnv, freePort, requireBundles, RunningApi, runCli, startApi } from './processes';

type Answer = { status: number; connection: string | undefined; body: string } | { socketError: string };

function describeAnswer(answer: Answer): string {
  return 'socketError' in answer ? `socket ${answer.socketError}` : `${answer.status} connection=${answer.connection}`;
}

function send(port: number, path: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ socketError: error.code ?? error.message }));
    req.end();
  });
}

/**
 * A request the server has begun (it answered `100 Continue` to its headers) whose body the test
 * sends later: in flight for as long as the test wants, without depending on timing.
 */
async function beginRequest(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ finish(): Promise<Answer> }> {
  let req: ClientRequest | undefined;
  const answered = new Promise<Answer>((resolve) => {
    req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { ...headers, expect: '100-continue', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ socketError: error.code ?? error.message }));
    req.flushHeaders();
  });
  const continued = await Promise.race([
    new Promise<true>((resolve) => req?.once('continue', () => resolve(true))),
    answered.then((answer) => answer),
  ]);
  if (continued !== true) throw new Error(`the server answered before the body was sent: ${describeAnswer(continued)}`);
  return {
    finish: () => {
      req?.end(body);
      return answered;
    },
  };
}

beforeAll(() => requireBundles());

/**
 * Under keep-alive load, 1 474 requests started after SIGTERM still got 200. The
 * built API as a process, clients that keep sending on kept-alive sockets, one request in flight
 * (its body not yet sent), then SIGTERM. Bounds are counts of requests, never durations.
 */
describe('SIGTERM under keep-alive load, on the built API', () => {
  const CLIENTS = 4;
  /** a client still served this many times after the shutdown began would go on for ever */
  const GIVE_UP_AFTER = 50;
  let api: RunningApi | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;

  afterAll(async () => {
    // a failed run may leave it waiting for the request in flight: it must not outlive the test
    if (api?.process.exitCode === null) api.process.kill('SIGKILL');
    await api?.stop();
    await dropDatabase?.();
  });

  it('refuses new connections, closes kept-alive ones, finishes the request in flight and exits 0', async () => {
    const database = await createEmptyDatabase();
    dropDatabase = database.drop;
    const port = await freePort();
    const env = cleanEnv({
      DATABASE_URL: database.url,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      // the request in flight is held by the test, not by a clock: only the test ends it
      SHUTDOWN_TIMEOUT_MS: '600000',
    });
    const running = await startApi(env);
    api = running;
    const created = runCli(['account', 'create', '--name', 'A', '--owner-email', 'o@a.test', '--enable-api', '--json'], env);
    expect(created.code).toBe(0);
    const { api: credentials } = JSON.parse(created.stdout);
    const shuttingDown = () => running.output().includes('"msg":"shutting down');

    // each client keeps one socket alive and sends on it, one request after another
    const servedBefore = new Array<number>(CLIENTS).fill(0);
    const after: Answer[][] = Array.from({ length: CLIENTS }, () => []);
    const endedBy: string[] = new Array<string>(CLIENTS).fill('');
    const agents = Array.from({ length: CLIENTS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const loops = agents.map(async (agent, client) => {
      for (;;) {
        const sentAfterShutdownBegan = shuttingDown();
        const answer = await send(port, '/ping', agent);
        if (!sentAfterShutdownBegan) {
          if ('status' in answer && answer.status === 200) servedBefore[client]++;
          continue;
        }
        after[client].push(answer);
        if ('socketError' in answer && answer.socketError === 'ECONNREFUSED') {
          endedBy[client] = 'refused';
          return;
        }
        if (after[client].length >= GIVE_UP_AFTER) {
          endedBy[client] = 'gave up';
          return;
        }
      }
    });
    while (servedBefore.some((served) => served < 10)) await new Promise((resolve) => setImmediate(resolve));

    const inFlight = await beginRequest(
      port,
      '/resources',
      { authorization: basic(credentials.key, credentials.secret), 'content-type': 'application/json' },
      JSON.stringify({ Name: 'Created during shutdown' }),
    );

    running.process.kill('SIGTERM');
    await running.waitForOutput('"msg":"shutting down');
    await Promise.all(loops);
    for (const agent of agents) agent.destroy();

    // the request in flight still holds the process: nothing may end it but its own answer
    expect(running.process.exitCode).toBeNull();
    expect(describeAnswer(await send(port, '/ping', new Agent({ keepAlive: false })))).toBe('socket ECONNREFUSED');

    const answer = await inFlight.finish();
    expect(answer).toMatchObject({ status: 201 });
    expect(JSON.parse((answer as { body: string }).body).model.name).toBe('Created during shutdown');
    expect(await running.stop()).toBe(0);
    expect(running.output()).toMatch(/"outcome":"complete"[^\n]*"msg":"shutdown complete"/);

    const kinds = new Map<string, number>();
    for (const answer of after.flat()) kinds.set(describeAnswer(answer), (kinds.get(describeAnswer(answer)) ?? 0) + 1);
    process.stdout.write(`shutdown e2e: answers to requests sent after "shutting down": ${JSON.stringify([...kinds])}\n`);
    expect(endedBy).toEqual(new Array<string>(CLIENTS).fill('refused'));
    // a request the server read before it began closing may still be served: at most one per client
    expect(kinds.get('200 connection=keep-alive') ?? 0).toBeLessThanOrEqual(CLIENTS);
    for (const kind of kinds.keys()) expect(kind).toMatch(/^(200 connection=keep-alive|503 connection=close|socket E[A-Z]+)$/);
  });

  it('ends a request that never finishes once SHUTDOWN_TIMEOUT_MS has passed, and exits', async () => {
    const database = await createEmptyDatabase();
    const port = await freePort();
    const env = cleanEnv({
      DATABASE_URL: database.url,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      SHUTDOWN_TIMEOUT_MS: '200',
    });
    const running = await startApi(env);
    try {
      // a client that announced a body and never sends it
      const stuck = await beginRequest(port, '/resources', { 'content-type': 'application/json' }, '{}');
      running.process.kill('SIGTERM');
      expect(await running.stop()).toBe(0);
      expect(running.output()).toMatch(/"timeoutMs":200[^\n]*"msg":"shutdown: requests still in flight after the timeout/);
      expect(running.output()).toMatch(/"outcome":"forced"[^\n]*"msg":"shutdown complete"/);
      // its socket was closed by the server: sending the body now reaches no one
      expect(describeAnswer(await stuck.finish())).toMatch(/^socket E[A-Z]+$/);
    } finally {
      if (running.process.exitCode === null) running.process.kill('SIGKILL');
      await running.stop();
      await database.drop();
    }
  });
});
