import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createServer, Server } from 'node:net';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { API_BUNDLE, cleanEnv, freePort, requireBundles, ROOT } from './processes';

beforeAll(() => requireBundles());

/** The built API run to its end: these starts fail, so it exits on its own. */
function runApi(env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [API_BUNDLE], { cwd: ROOT, env, encoding: 'utf8', timeout: 90_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('start-up failures an operator can fix: one line on stderr, exit 1', () => {
  const key = randomBytes(32).toString('hex');

  it('a busy port', async () => {
    const database = await createEmptyDatabase();
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '::', resolve));
    try {
      const run = runApi(cleanEnv({ DATABASE_URL: database.url, SECRET_ENCRYPTION_KEY: key, PORT: String(port) }));
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`twofold: port ${port} is in use; set PORT to a free port or stop the process that holds it\n`);
    } finally {
      holder.close();
      await database.drop();
    }
  });

  it('an unreachable database, after its attempts with back-off, each logged', async () => {
    const closedPort = await freePort();
    const run = runApi(
      cleanEnv({
        DATABASE_URL: `postgres://twofold:s3cret@127.0.0.1:${closedPort}/twofold`,
        SECRET_ENCRYPTION_KEY: key,
        PORT: String(await freePort()),
        DATABASE_START_ATTEMPTS: '2',
      }),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `twofold: cannot reach the database at 127.0.0.1:${closedPort}/twofold (ECONNREFUSED) after 2 attempt(s); check DATABASE_URL and that PostgreSQL is running (DATABASE_START_ATTEMPTS sets the attempts)\n`,
    );
    const retries = run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
    expect(retries).toEqual([expect.objectContaining({ level: 40, attempt: 1, attempts: 2, retryInMs: 500, reason: 'ECONNREFUSED' })]);
    expect(run.stdout + run.stderr).not.toContain('s3cret');
  });
});
