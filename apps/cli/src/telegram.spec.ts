import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { runCli } from './cli';

const ROOT = join(__dirname, '../../..');
const TOKEN = `7000000004:${randomBytes(24).toString('base64url')}`;
const SECRET = randomBytes(24).toString('base64url');

/**
 * `telegram status`, `set-webhook`, `delete-webhook` against the fake Bot API server, run as a person
 * runs it (`npm run fake-telegram`, a process of its own) and inspected through its control routes.
 */
describe('operator CLI: the Telegram bot', () => {
  let fake: ChildProcess;
  let fakeUrl: string;

  beforeAll(async () => {
    fake = spawn(process.execPath, ['-r', './tools/openapi/register.cjs', 'apps/api/test/testing/fake-telegram.main.ts'], {
      cwd: ROOT,
      env: { ...process.env, FAKE_TELEGRAM_PORT: '0', FAKE_TELEGRAM_TOKEN: TOKEN, FAKE_TELEGRAM_BOT: 'AcmeSignInBot' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    fakeUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      fake.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match) resolve(match[1]);
      });
      fake.once('exit', (code) => reject(new Error(`the fake Bot API exited (${code}): ${out}`)));
    });
  });
  afterAll(() => {
    fake?.kill('SIGTERM');
  });

  async function cli(env: NodeJS.ProcessEnv, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const connect = jest.fn();
    const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t) }, connect, env);
    expect(connect).not.toHaveBeenCalled();
    expect(stdout + stderr).not.toContain(TOKEN.split(':')[1]);
    return { code, stdout, stderr, json: stdout ? JSON.parse(stdout) : JSON.parse(stderr) };
  }
  const env = (over: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_URL: fakeUrl,
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    PUBLIC_URL: 'https://2fa.acme.test/',
    ...over,
  });
  const fakeState = async () =>
    (await fetch(`${fakeUrl}/_fake/state`)).json() as Promise<{ webhook: { url: string; secretToken: string } | null }>;

  it('registers $PUBLIC_URL/telegram/updates with the webhook secret, shows it in the status, and removes it', async () => {
    const set = await cli(env(), 'telegram', 'set-webhook', '--json');
    expect(set).toMatchObject({ code: 0, json: { webhook: { url: 'https://2fa.acme.test/telegram/updates' } } });
    expect((await fakeState()).webhook).toEqual({ url: 'https://2fa.acme.test/telegram/updates', secretToken: SECRET });

    const status = await cli(env(), 'telegram', 'status', '--json');
    expect(status.code).toBe(0);
    expect(status.json).toEqual({
      bot: { id: expect.any(Number), username: 'AcmeSignInBot', name: 'Twofold' },
      apiUrl: fakeUrl,
      updates: 'webhook',
      expectedWebhookUrl: 'https://2fa.acme.test/telegram/updates',
      webhook: {
        url: 'https://2fa.acme.test/telegram/updates',
        registered: true,
        pendingUpdateCount: 0,
        lastErrorDate: null,
        lastErrorMessage: null,
      },
    });

    expect(await cli(env(), 'telegram', 'set-webhook', '--url', 'https://other.acme.test/hook', '--json')).toMatchObject({ code: 0 });
    expect((await fakeState()).webhook?.url).toBe('https://other.acme.test/hook');
    expect(await cli(env(), 'telegram', 'delete-webhook', '--json')).toMatchObject({ code: 0, json: { webhook: null } });
    expect((await fakeState()).webhook).toBeNull();
    const polling = await cli(env({ TELEGRAM_WEBHOOK_SECRET: '' }), 'telegram', 'status', '--json');
    expect(polling.json).toMatchObject({ updates: 'polling', expectedWebhookUrl: null, webhook: { url: null, registered: false } });
  });

  it('refuses without a bot, without a webhook secret, with a wrong token or an unreachable Bot API; never printing the token', async () => {
    expect(await cli({}, 'telegram', 'status', '--json')).toMatchObject({ code: 1, json: { error: { code: 'TELEGRAM_NOT_CONFIGURED' } } });
    expect(await cli(env({ TELEGRAM_WEBHOOK_SECRET: '' }), 'telegram', 'set-webhook', '--json')).toMatchObject({
      code: 1,
      json: { error: { code: 'TELEGRAM_NO_WEBHOOK_SECRET' } },
    });
    const wrong = await cli(
      env({ TELEGRAM_BOT_TOKEN: `7000000004:${randomBytes(24).toString('base64url')}` }),
      'telegram',
      'status',
      '--json',
    );
    expect(wrong).toMatchObject({
      code: 1,
      json: { error: { code: 'TELEGRAM_REFUSED', message: 'getMe: the Bot API refused (401: Unauthorized)' } },
    });
    const down = await cli(env({ TELEGRAM_API_URL: 'http://127.0.0.1:9' }), 'telegram', 'status', '--json');
    expect(down).toMatchObject({
      code: 1,
      json: { error: { code: 'TELEGRAM_UNREACHABLE', message: 'getMe: cannot reach the Bot API at http://127.0.0.1:9' } },
    });
  });
});
