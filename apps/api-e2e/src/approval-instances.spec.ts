/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked by the assertions */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { bindTelegramChat, FakeTelegramProcess, startFakeTelegram } from './fake-telegram-process';
import { Pgbouncer, pgbouncerAvailability, startPgbouncer } from './pgbouncer';
import { basic, cleanEnv, freePort, requireBundles, RunningApi, runCli, startApi } from './processes';

const pgbouncerState = pgbouncerAvailability();
if (!pgbouncerState.available) console.warn(pgbouncerState.message);
const describeWithPgbouncer = pgbouncerState.available || pgbouncerState.mustFail ? describe : describe.skip;

/**
 * An approval decided on another instance: two built API processes through PgBouncer in transaction
 * mode (where LISTEN does not pass, so the waiting instance reads its waits' decisions once a second),
 * the call held on A, the user's button press arriving through B's webhook. A answers Granted;
 * "it wasn't me" pressed through B is Denied on A. APPROVAL_REPORT=1 prints how long A took to hear.
 */
describeWithPgbouncer('an approval waited for on one instance and decided through the other, behind PgBouncer', () => {
  let pgbouncer: Pgbouncer;
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let fake: FakeTelegramProcess;
  let a: RunningApi;
  let b: RunningApi;
  let accountId: string;
  let accountAuth: string;
  let resourceAuth: string;
  let nextChat = 9_200_000_000;
  const heard: number[] = [];

  const post = async (api: RunningApi, path: string, body: unknown, auth: string) => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  async function telegramUser(): Promise<{ identity: string; chatId: number }> {
    const identity = `two-${randomBytes(4).toString('hex')}`;
    const chatId = nextChat++;
    const user = (await post(b, '/users', { Identity: identity }, accountAuth)).body.model;
    await fake.send(chatId, 'hello');
    await bindTelegramChat(database.url, accountId, user.id, chatId);
    return { identity, chatId };
  }

  /** Holds `ra` with `t` on A, presses `label` in the chat (the update goes to B's webhook), returns A's answer. */
  async function heldOnAPressedOnB(label: string) {
    const user = await telegramUser();
    const held = post(a, '/access/requests/ra', { identity: user.identity, passCode: 't', language: 'en' }, resourceAuth);
    let question;
    for (;;) {
      question = (await fake.questions()).find((message) => message.chatId === user.chatId);
      if (question) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const button = (question.keyboard ?? []).flat().find((candidate) => candidate.text === label) as { callback_data: string };
    const pressedAt = Date.now();
    expect(await fake.press(user.chatId, question.messageId, button.callback_data)).toBe(200);
    const answer = await held;
    heard.push(Date.now() - pressedAt);
    return answer;
  }

  beforeAll(async () => {
    if (!pgbouncerState.available) throw new Error(pgbouncerState.message);
    requireBundles();
    database = await createEmptyDatabase();
    pgbouncer = await startPgbouncer({ serverUrl: database.url, ignoreStartupParameters: ['statement_timeout'] });
    const token = `7000000005:${randomBytes(24).toString('base64url')}`;
    const secret = randomBytes(24).toString('base64url');
    fake = await startFakeTelegram(token);
    dataDir = mkdtempSync(join(tmpdir(), 'twofold-approval-instances-'));
    const env = cleanEnv({
      DATABASE_URL: pgbouncer.urlOf(new URL(database.url).pathname.slice(1)),
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      TWOFOLD_DATA_DIR: dataDir,
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_API_URL: fake.url,
      TELEGRAM_WEBHOOK_SECRET: secret,
    });
    const [portA, portB] = [await freePort(), await freePort()];
    [a, b] = await Promise.all([startApi({ ...env, PORT: String(portA) }), startApi({ ...env, PORT: String(portB) })]);
    // Telegram sends the updates to B only, as it would to the one public address registered
    const registered = await fetch(`${fake.url}/bot${token}/setWebhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${b.baseUrl}/telegram/updates`, secret_token: secret }),
    });
    expect(((await registered.json()) as any).ok).toBe(true);
    const created = JSON.parse(
      runCli(['account', 'create', '--name', 'Two', '--owner-email', 'o@two.test', '--enable-api', '--json'], env).stdout,
    );
    accountId = created.account.id;
    accountAuth = basic(created.api.key, created.api.secret);
    const resource = (await post(a, '/resources', { Name: 'VPN' }, accountAuth)).body.model;
    resourceAuth = basic(resource.apiKey, resource.apiSecret);
  });

  afterAll(async () => {
    for (const api of [a, b]) await api?.stop();
    await fake?.stop();
    await pgbouncer?.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (process.env['APPROVAL_REPORT']) console.log(`approval decided on B, heard on A after (ms): ${JSON.stringify(heard)}`);
  });

  it('the approval pressed through B grants the call held on A', async () => {
    const answer = await heldOnAPressedOnB('Yes, it is me');
    expect(answer.status).toBe(200);
    expect(answer.body.model).toMatchObject({ status: 'Granted', authenticator: 'Telegram' });
  });

  it('"it wasn\'t me" pressed through B denies the call held on A', async () => {
    const answer = await heldOnAPressedOnB("It wasn't me");
    expect(answer.status).toBe(200);
    expect(answer.body.model).toMatchObject({ status: 'Denied', replyMessage: 'Access denied: the sign-in was rejected on your device.' });
  });
});
