/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked by the assertions */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { basic, cleanEnv, freePort, requireBundles, ROOT, RunningApi, runCli, startApi } from './processes';

const yesterday = () => new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);

beforeAll(() => requireBundles());

describe('the built API and CLI on DATABASE_URL', () => {
  let api: RunningApi;
  let env: NodeJS.ProcessEnv;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const database = await createEmptyDatabase();
    dropDatabase = database.drop;
    env = cleanEnv({ DATABASE_URL: database.url, SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'), PORT: String(await freePort()) });
    api = await startApi(env);
  });
  afterAll(async () => {
    await api?.stop();
    await dropDatabase?.();
  });

  it('prints how to provision an account when the database is empty', async () => {
    // printed once the API listens and has counted the accounts: /ping may answer first
    expect(await api.waitForOutput('npm run --silent cli -- account create')).toContain('"msg":"No account yet.');
  });

  it('provisions an account whose credentials work on /journal, /groups and /resources; secrets stay out of the logs', async () => {
    const created = runCli(['account', 'create', '--name', 'A', '--owner-email', 'o@a.test', '--enable-api', '--json'], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { api: credentials } = JSON.parse(created.stdout);
    const authorization = basic(credentials.key, credentials.secret);

    const journal = await fetch(`${api.baseUrl}/journal?eventDate=${yesterday()}`, { headers: { authorization } });
    expect(journal.status).toBe(200);
    expect(((await journal.json()) as any).model).toMatchObject({ success: true, data: [], totalElements: 0 });

    const groups = await fetch(`${api.baseUrl}/groups`, { headers: { authorization } });
    expect(((await groups.json()) as any).model.data.map((g: { name: string }) => g.name)).toEqual(['AllUsers']);

    const resource = await fetch(`${api.baseUrl}/resources`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ Name: 'VPN' }),
    });
    expect(resource.status).toBe(201);
    const resourceSecret = ((await resource.json()) as any).model.apiSecret;

    const wrong = await fetch(`${api.baseUrl}/groups`, { headers: { authorization: basic(credentials.key, 'wrong') } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="api"');

    // the line of the 401 above is the last one: once it is written, every earlier line is too
    await api.waitForOutput('"statusCode":401');
    const output = api.output();
    expect(output).toContain('"statusCode":201');
    expect(output).not.toContain(credentials.secret);
    expect(output).not.toContain(resourceSecret);
    expect(output).not.toContain(authorization.slice('Basic '.length));
  });

  it('answers 403 once the operator disables the API', async () => {
    const created = JSON.parse(
      runCli(['account', 'create', '--name', 'B', '--owner-email', 'o@b.test', '--enable-api', '--json'], env).stdout,
    );
    expect(runCli(['api', 'disable', '--account', created.account.id, '--json'], env).code).toBe(0);
    const res = await fetch(`${api.baseUrl}/groups`, { headers: { authorization: basic(created.api.key, created.api.secret) } });
    expect(res.status).toBe(403);
  });

  it('answers malformed JSON with 400 {message, traceId} and never 500', async () => {
    const created = JSON.parse(
      runCli(['account', 'create', '--name', 'C', '--owner-email', 'o@c.test', '--enable-api', '--json'], env).stdout,
    );
    const res = await fetch(`${api.baseUrl}/groups`, {
      method: 'POST',
      headers: { authorization: basic(created.api.key, created.api.secret), 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ model: null, success: false, message: 'Malformed JSON body.', traceId: expect.any(String) });
  });

  it('works through `npm run --silent cli`, stdout holding exactly the JSON', () => {
    const result = spawnSync('npm', ['run', '--silent', 'cli', '--', 'account', 'list', '--json'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).accounts.map((a: { name: string }) => a.name)).toEqual(expect.arrayContaining(['A', 'B', 'C']));
  });

  it('shuts down gracefully on SIGTERM', async () => {
    expect(await api.stop()).toBe(0);
    expect(api.output()).toContain('shutting down');
  });
});

describe('the built API without DATABASE_URL: embedded PostgreSQL under the data directory', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'twofold-embedded-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts, serves, shares its database with the CLI, and stops its PostgreSQL with it', async () => {
    const env = cleanEnv({ TWOFOLD_DATA_DIR: dataDir, PORT: String(await freePort()) });
    const api = await startApi(env);
    try {
      await api.waitForOutput('using the embedded PostgreSQL');
      // the CLI joins the server the API started
      const created = runCli(['account', 'create', '--name', 'E', '--owner-email', 'o@e.test', '--enable-api', '--json'], env);
      expect(created.stderr).toBe('');
      const { api: credentials } = JSON.parse(created.stdout);
      const groups = await fetch(`${api.baseUrl}/groups`, { headers: { authorization: basic(credentials.key, credentials.secret) } });
      expect(groups.status).toBe(200);
    } finally {
      expect(await api.stop()).toBe(0);
    }
    // with the API stopped the CLI starts the embedded server itself, and the data is still there
    const listed = runCli(['account', 'list', '--json'], env);
    expect(listed.stderr).toBe('');
    expect(JSON.parse(listed.stdout).accounts.map((a: { name: string }) => a.name)).toEqual(['E']);
    const stillRunning = spawnSync('pgrep', ['-f', join(dataDir, 'postgres')], { encoding: 'utf8' });
    expect(stillRunning.stdout.trim()).toBe('');
  });
});

describe('the provisioning hint where there are no npm scripts', () => {
  it('names the command TWOFOLD_CLI_COMMAND gives, as the image sets it, and that command creates the account', async () => {
    const database = await createEmptyDatabase();
    const env = cleanEnv({
      DATABASE_URL: database.url,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PORT: String(await freePort()),
      // the Dockerfile's value: the image has the bundles, but neither npm scripts nor tools/
      TWOFOLD_CLI_COMMAND: 'node dist/apps/cli/main.js',
    });
    const api = await startApi(env);
    try {
      const output = await api.waitForOutput('"msg":"No account yet.');
      const hint = output.split('\n').find((line) => line.includes('"msg":"No account yet.'));
      const { msg } = JSON.parse(hint ?? '{}');
      expect(msg).toBe(
        'No account yet. Create one with: node dist/apps/cli/main.js account create --name "My company" --owner-email you@example.com --enable-api --json',
      );
      expect(output).not.toContain('npm run');
      // the hint's command, as printed, from the directory the image runs it in
      const command = msg.slice('No account yet. Create one with: '.length).replace('"My company"', 'Hinted');
      const [program, ...args] = command.split(' ');
      expect(program).toBe('node');
      const created = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 90_000 });
      expect(created.stderr).toBe('');
      expect(JSON.parse(created.stdout).account.name).toBe('Hinted');
    } finally {
      await api.stop();
      await database.drop();
    }
  });
});

describe('configuration is validated at start', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 1 to 65535'],
    [{ PORT: '3000', DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must use postgres: or postgresql:'],
    [{ PORT: '3000', DATABASE_URL: 'postgres://127.0.0.1:1/x' }, 'SECRET_ENCRYPTION_KEY is required'],
    [{ PORT: '3000', SECRET_ENCRYPTION_KEY: 'short' }, 'SECRET_ENCRYPTION_KEY must be 32 bytes'],
    [{ PORT: '3000', LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ PORT: '3000', PUBLIC_URL: 'not a url' }, 'PUBLIC_URL must be a URL'],
  ])('refuses %p', (settings, message) => {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist/apps/api/main.js')], {
      cwd: ROOT,
      env: cleanEnv({ TWOFOLD_DATA_DIR: join(tmpdir(), 'twofold-config-check'), ...settings }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain(message);
  });
});
