/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked by the assertions */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { FakeTelegramProcess, startFakeTelegram } from './fake-telegram-process';
import { basic, cleanEnv, freePort, requireBundles, RunningApi, runCli, startApi } from './processes';

beforeAll(() => requireBundles());

const WAITS = 20;

/**
 * The built API stopped while calls wait for their users to confirm on the phone: every held call
 * is answered 200 Denied ("the service is restarting; try again") before the process exits, and it
 * exits 0. The Bot API is the fake on loopback; nobody presses anything.
 */
describe('SIGTERM with approval waits held, on the built API', () => {
  let api: RunningApi | undefined;
  let fake: FakeTelegramProcess | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;

  afterAll(async () => {
    if (api?.process.exitCode === null) api.process.kill('SIGKILL');
    await api?.stop();
    await fake?.stop();
    await dropDatabase?.();
  });

  it(`answers ${WAITS} held waits 200 Denied, then exits 0`, async () => {
    const token = `7000000003:${randomBytes(24).toString('base64url')}`;
    fake = await startFakeTelegram(token);
    const database = await createEmptyDatabase();
    dropDatabase = database.drop;
    const env = cleanEnv({
      DATABASE_URL: database.url,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PORT: String(await freePort()),
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_API_URL: fake.url,
      TELEGRAM_WEBHOOK_SECRET: randomBytes(24).toString('base64url'),
      // long enough that only the shutdown can end the waits
      APPROVAL_WAIT_SECONDS: '55',
    });
    const running = await startApi(env);
    api = running;
    const created = runCli(['account', 'create', '--name', 'A', '--owner-email', 'o@a.test', '--enable-api', '--json'], env);
    expect(created.code).toBe(0);
    const { api: credentials, account } = JSON.parse(created.stdout);
    const authorization = basic(credentials.key, credentials.secret);
    const post = (path: string, body: object, auth = authorization) =>
      fetch(`${running.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const resource = ((await (await post('/resources', { Name: 'VPN' })).json()) as any).model;
    const vpn = basic(resource.apiKey, resource.apiSecret);

    // users whose one factor is a bound Telegram chat, bound as /start would bind them
    const sql = new Client({ connectionString: database.url });
    await sql.connect();
    try {
      for (let i = 0; i < WAITS; i++) {
        const user = ((await (await post('/users', { Identity: `held-${i}` })).json()) as any).model;
        const chatId = 8_000_000_000 + i;
        await fake.send(chatId, 'hello');
        const [row] = (
          await sql.query(
            `INSERT INTO authenticators (account_id, user_id, kind, name, created_at) VALUES ($1, $2, 'Telegram', 'Telegram', now()) RETURNING id`,
            [account.id, user.id],
          )
        ).rows;
        await sql.query(
          `INSERT INTO telegram_bindings (authenticator_id, account_id, chat_id, language_code, created_at) VALUES ($1, $2, $3, 'en', now())`,
          [row.id, account.id, chatId],
        );
      }
    } finally {
      await sql.end();
    }

    const held = Array.from({ length: WAITS }, (_, i) =>
      post('/access/requests/ra', { identity: `held-${i}`, passCode: 't', language: 'en' }, vpn).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as any,
      })),
    );
    // every question was sent: each call now waits for its user (a call answered before that ends the
    // wait at once: the assertions below then say how it was answered, instead of a timeout)
    let answeredEarly = false;
    for (const call of held) void call.then(() => (answeredEarly = true));
    while (!answeredEarly && (await fake.questions()).length < WAITS) await new Promise((resolve) => setTimeout(resolve, 20));

    const exitCode = await running.stop();
    const answers = await Promise.all(held);
    expect(answers.map((answer) => `${answer.status} ${answer.body.model.status}`)).toEqual(new Array(WAITS).fill('200 Denied'));
    expect(new Set(answers.map((answer) => answer.body.model.replyMessage))).toEqual(
      new Set(['Access denied: the service is restarting. Try again.']),
    );
    expect(exitCode).toBe(0);
    // a fresh database migrated by the built API, the CLI and twenty users, each a process or a round of
    // them: about 20 s on a quiet machine, past two minutes on a 2-core one running a benchmark beside it
  }, 300_000);
});
