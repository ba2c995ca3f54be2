import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { ApprovalFactor } from '@twofold/domain';
import { AccessRequestsRepository, ApprovalsRepository } from '@twofold/persistence';
import { decidedAccessRequest } from '@twofold/persistence/testing';
import { ApprovalsService, OpenedApproval } from '../approvals/approvals.service';
import { FakeChat, FakeTelegram } from '../../test/testing/fake-telegram';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';
import { TelegramBindingService } from './telegram-binding.service';
import { encodeCallbackData } from './telegram-callback-data';
import { TelegramRuntime } from './telegram-runtime';

const TOKEN = `7000000001:${randomBytes(24).toString('base64url')}`;
const SECRET = randomBytes(24).toString('base64url');

/**
 * The bot against a fake Bot API server on loopback (testing/fake-telegram.ts): Telegram's webhook
 * calls, chats binding with /start, approvals by buttons, and the refusals of bad presses.
 */
describe('Telegram bot (webhook)', () => {
  let fake: FakeTelegram;
  let t: TestApp;
  let accountAuth: string;
  let accountId: string;
  let resourceId: string;
  let webhookUrl: string;
  const logged: string[] = [];
  let nextChat = 5_000_000_001;

  beforeAll(async () => {
    fake = await FakeTelegram.start({ token: TOKEN });
    t = await startTestApp(
      { logLevel: 'debug', telegram: { botToken: TOKEN, apiUrl: fake.url, updates: 'webhook', webhookSecret: SECRET } },
      { logDestination: { write: (line: string) => void logged.push(line) } },
    );
    await t.app.listen(0, '127.0.0.1');
    webhookUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/telegram/updates`;
    fake.webhook = { url: webhookUrl, secretToken: SECRET };
    const account = await t.newAccount({ name: 'Acme' });
    accountAuth = account.authorization;
    accountId = account.account.id;
    await t.as(accountAuth).put('/settings/branding').send({ displayName: 'Acme Bank' }).expect(200);
    resourceId = (await t.newResource(account.account.id, 'Staff VPN')).resource.id;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => {
    t.clock.set(TEST_NOW);
    fake.clearFailures();
    fake.blocked.clear();
  });

  const newChat = (over: Partial<FakeChat> = {}): FakeChat => ({ id: nextChat++, languageCode: 'en', ...over });

  async function newUser(): Promise<{ id: string; identity: string }> {
    const identity = `user-${randomBytes(4).toString('hex')}`;
    const res = await t.as(accountAuth).post('/users').send({ Identity: identity }).expect(200);
    return { id: res.body.model.id, identity };
  }

  async function linkPayload(userId: string): Promise<{ payload: string; linkId: string }> {
    const link = await t.app.get(TelegramBindingService).createLink(accountId as never, userId);
    const url = new URL(link.url as string);
    expect(`${url.origin}${url.pathname}`).toBe('https://t.me/TwofoldTestBot');
    return { payload: url.searchParams.get('start') as string, linkId: link.id };
  }

  /** A user with a chat bound through /start; returns the Telegram authenticator's id. */
  async function boundUser(chat: FakeChat): Promise<{ id: string; identity: string; authenticatorId: string }> {
    const user = await newUser();
    const { payload } = await linkPayload(user.id);
    expect(await fake.sendText(chat, `/start ${payload}`)).toBe(200);
    const listed = await t.as(accountAuth).get(`/users/${user.id}/authenticators`).expect(200);
    return { ...user, authenticatorId: listed.body.model.Telegram[0].id };
  }

  async function approval(user: { id: string; identity: string; authenticatorId: string }, channel: 'ra' | 'page' = 'ra') {
    const accessRequestId = await t.app
      .get(AccessRequestsRepository)
      .insertDecided(
        accountId as never,
        decidedAccessRequest({ resourceId, userId: user.id, identity: user.identity, channel, createdAt: TEST_NOW }),
      );
    const factor: ApprovalFactor = { id: user.authenticatorId, kind: 'Telegram', createdAt: TEST_NOW };
    const started = await t.app
      .get(ApprovalsService)
      .start({ accountId: accountId as never, accessRequestId, userId: user.id, resourceId, channel, address: '198.51.100.23' }, factor, {
        withNumber: channel === 'page',
      });
    return started;
  }

  async function waiting(user: { id: string; identity: string; authenticatorId: string }, channel: 'ra' | 'page' = 'ra') {
    const started = await approval(user, channel);
    if (started.kind !== 'waiting') throw new Error(`not waiting: ${JSON.stringify(started)}`);
    return started.approval;
  }

  const statusOf = async (opened: OpenedApproval) => (await t.app.get(ApprovalsRepository).findById(opened.accountId, opened.id))?.status;
  const lastAnswer = () => fake.callbackAnswers.at(-1)?.text;
  const EXPIRED = 'This request has expired.';

  describe('binding a chat with /start', () => {
    it('binds the chat as a Telegram authenticator of the user, journaled, and says so in the chat', async () => {
      const chat = newChat({ username: 'jane_tg' });
      const user = await newUser();
      const { payload, linkId } = await linkPayload(user.id);
      expect(payload).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(await t.app.get(TelegramBindingService).linkState(accountId as never, linkId)).toEqual({
        bound: false,
        authenticatorId: null,
      });
      expect(await fake.sendText(chat, `/start ${payload}`)).toBe(200);
      const listed = await t.as(accountAuth).get(`/users/${user.id}/authenticators`).expect(200);
      expect(listed.body.model).toEqual({ Telegram: [{ id: expect.any(String), name: 'Telegram @jane_tg' }] });
      const authenticatorId = listed.body.model.Telegram[0].id;
      expect(await t.app.get(TelegramBindingService).linkState(accountId as never, linkId)).toEqual({ bound: true, authenticatorId });
      expect(fake.lastBotMessage(chat.id)?.text).toBe('Done: this chat now confirms your sign-ins to Acme Bank.');
      const events = await t.database.dataSource.query(
        `SELECT action, subject, additional_fields AS fields FROM journal_events WHERE account_id = $1 AND object = 'Authenticator'`,
        [accountId],
      );
      expect(events).toContainEqual({
        action: 'Bind',
        subject: user.identity,
        fields: expect.objectContaining({
          UserId: user.id,
          AuthenticatorId: authenticatorId,
          AuthenticatorKind: 'Telegram',
          '2FAMethod': 'Telegram',
        }),
      });
      const users = await t.as(accountAuth).get(`/users?identity=${user.identity}`).expect(200);
      expect(JSON.stringify(users.body)).toContain('"authenticators":["Telegram"]');
    });

    it('a used, unknown, expired or over-long payload binds nothing and says the link is no longer valid', async () => {
      const user = await newUser();
      const { payload } = await linkPayload(user.id);
      expect(await fake.sendText(newChat(), `/start ${payload}`)).toBe(200);
      const invalid = 'This link is no longer valid. Open a new one on the sign-in page.';
      const used = newChat();
      await fake.sendText(used, `/start ${payload}`);
      expect(fake.lastBotMessage(used.id)?.text).toBe(invalid);
      const unknown = newChat();
      await fake.sendText(unknown, `/start ${randomBytes(32).toString('base64url')}`);
      expect(fake.lastBotMessage(unknown.id)?.text).toBe(invalid);
      const late = await linkPayload(user.id);
      t.clock.advance(15 * 60_000);
      const expired = newChat();
      await fake.sendText(expired, `/start ${late.payload}`);
      expect(fake.lastBotMessage(expired.id)?.text).toBe(invalid);
      const long = newChat();
      await fake.sendText(long, `/start ${'a'.repeat(65)}`);
      expect(fake.lastBotMessage(long.id)?.text).toBe(invalid);
      const listed = await t.as(accountAuth).get(`/users/${user.id}/authenticators`).expect(200);
      expect(listed.body.model.Telegram).toHaveLength(1);
    });

    it('the same chat bound again adds nothing; a bare /start explains; replies follow the language', async () => {
      const chat = newChat({ languageCode: 'ru' });
      const user = await newUser();
      await fake.sendText(chat, `/start ${(await linkPayload(user.id)).payload}`);
      expect(fake.lastBotMessage(chat.id)?.text).toBe('Готово: в этом чате вы будете подтверждать входы в Acme Bank.');
      await fake.sendText(chat, `/start ${(await linkPayload(user.id)).payload}`);
      expect(fake.lastBotMessage(chat.id)?.text).toBe('Этот чат уже подтверждает ваши входы.');
      const listed = await t.as(accountAuth).get(`/users/${user.id}/authenticators`).expect(200);
      expect(listed.body.model.Telegram).toHaveLength(1);
      const stranger = newChat();
      await fake.sendText(stranger, '/start');
      expect(fake.lastBotMessage(stranger.id)?.text).toMatch(/^To confirm sign-ins here/);
      const before = fake.messagesIn(stranger.id).length;
      await fake.sendText(stranger, 'hello bot');
      expect(fake.messagesIn(stranger.id)).toHaveLength(before + 1);
    });
  });

  describe('approvals by button', () => {
    it('approve/deny without a screen: names the sign-in, approves on a press, edits the message without buttons', async () => {
      const chat = newChat();
      const user = await boundUser(chat);
      const opened = await waiting(user);
      const question = fake.lastBotMessage(chat.id)!;
      expect(question.text).toBe(
        ['Sign-in to "Staff VPN" (Acme Bank)', 'Address: 198.51.100.23', 'Time: 2026-05-20 10:00 UTC', '', 'Is this you signing in?'].join(
          '\n',
        ),
      );
      expect(question.keyboard?.flat().map((button) => button.text)).toEqual(['Yes, it is me', "It wasn't me"]);
      for (const button of question.keyboard!.flat()) expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(64);
      const decision = t.app.get(ApprovalsService).awaitDecision(opened);
      expect((await fake.pressButton(chat, question, 'Yes, it is me')).status).toBe(200);
      expect(await decision).toMatchObject({ outcome: 'approved', approval: { authenticatorId: user.authenticatorId } });
      expect(lastAnswer()).toBe('Approved');
      await until(() => question.edits === 1);
      expect(question.keyboard).toBeNull();
      expect(question.text).toMatch(/\n\nApproved: the sign-in continues\.$/);
    });

    it('a sign-in with a screen: three numbers and "it wasn\'t me"; the right number approves', async () => {
      const chat = newChat();
      const user = await boundUser(chat);
      const opened = await waiting(user, 'page');
      const question = fake.lastBotMessage(chat.id)!;
      expect(question.text).toMatch(/Pick the number shown on the sign-in screen\.$/);
      const labels = question.keyboard!.flat().map((button) => button.text);
      expect(labels).toHaveLength(4);
      expect(labels).toContain(String(opened.number));
      expect(labels[3]).toBe("It wasn't me");
      const decision = t.app.get(ApprovalsService).awaitDecision(opened);
      await fake.pressButton(chat, question, String(opened.number));
      expect(await decision).toMatchObject({ outcome: 'approved' });
    });

    it('"it wasn\'t me" rejects, in the chat\'s language', async () => {
      const chat = newChat({ languageCode: 'ru' });
      const user = await boundUser(chat);
      const opened = await waiting(user);
      const question = fake.lastBotMessage(chat.id)!;
      expect(question.text).toMatch(/^Вход в «Staff VPN» \(Acme Bank\)\nАдрес: 198\.51\.100\.23\n/);
      const decision = t.app.get(ApprovalsService).awaitDecision(opened);
      await fake.press({ ...chat, languageCode: 'ru' }, question.messageId, question.keyboard![0][1].callback_data);
      expect(await decision).toMatchObject({ outcome: 'rejected', reason: 'notMe' });
      expect(lastAnswer()).toBe('Отклонено');
    });

    it('forged data, a press from another chat, a second press and a late press change nothing and answer "expired"', async () => {
      const chat = newChat();
      const user = await boundUser(chat);
      const opened = await waiting(user);
      const question = fake.lastBotMessage(chat.id)!;
      const approve = question.keyboard![0][0].callback_data;

      await fake.press(chat, question.messageId, randomBytes(34).toString('base64url'));
      expect(lastAnswer()).toBe(EXPIRED);
      // made for this approval and chat, with another key
      const { callbackDataKey } = await import('./telegram-callback-data');
      await fake.press(
        chat,
        question.messageId,
        encodeCallbackData(callbackDataKey(randomBytes(32)), opened.id, String(chat.id), { kind: 'approve' }),
      );
      expect(lastAnswer()).toBe(EXPIRED);
      const otherChat = newChat();
      await boundUser(otherChat);
      await fake.press(otherChat, question.messageId, approve);
      expect(lastAnswer()).toBe(EXPIRED);
      // the other chat's own key material cannot make data for this approval either
      const runtime = t.app.get(TelegramRuntime);
      await fake.press(
        otherChat,
        question.messageId,
        encodeCallbackData(runtime.callbackKey, opened.id, String(otherChat.id), { kind: 'approve' }),
      );
      expect(lastAnswer()).toBe(EXPIRED);
      expect(await statusOf(opened)).toBe('Pending');

      await fake.press(chat, question.messageId, question.keyboard![0][1].callback_data);
      expect(lastAnswer()).toBe('Rejected');
      await fake.press(chat, question.messageId, approve);
      expect(lastAnswer()).toBe(EXPIRED);
      expect(await statusOf(opened)).toBe('Rejected');

      const late = await waiting(user);
      const lateQuestion = fake.lastBotMessage(chat.id)!;
      t.clock.advance(55_000);
      await fake.press(chat, lateQuestion.messageId, lateQuestion.keyboard![0][0].callback_data);
      expect(lastAnswer()).toBe(EXPIRED);
      expect(await statusOf(late)).toBe('Pending');
    });

    it('a disabled or deleted Telegram factor answers nothing; the deletion is journaled and unbinds the chat', async () => {
      const chat = newChat();
      const user = await boundUser(chat);
      const opened = await waiting(user);
      const question = fake.lastBotMessage(chat.id)!;
      const base = `/users/${user.id}/authenticators/telegram/${user.authenticatorId}`;
      await t.as(accountAuth).post(`${base}/disable`).expect(200);
      await fake.press(chat, question.messageId, question.keyboard![0][0].callback_data);
      expect(lastAnswer()).toBe(EXPIRED);
      await t.as(accountAuth).post(`${base}/enable`).expect(200);
      await t.as(accountAuth).put(base).send({ Name: 'My phone' }).expect(200);
      await t.as(accountAuth).delete(base).expect(200);
      await fake.press(chat, question.messageId, question.keyboard![0][0].callback_data);
      expect(lastAnswer()).toBe(EXPIRED);
      expect(await statusOf(opened)).toBe('Pending');
      expect(
        await t.database.dataSource.query(`SELECT count(*)::int AS n FROM telegram_bindings WHERE authenticator_id = $1`, [
          user.authenticatorId,
        ]),
      ).toEqual([{ n: 0 }]);
      const [removal] = await t.database.dataSource.query(
        `SELECT additional_fields AS fields FROM journal_events WHERE account_id = $1 AND object = 'Authenticator' AND action = 'Disable'
          AND additional_fields->>'AuthenticatorId' = $2 ORDER BY seq DESC LIMIT 1`,
        [accountId, user.authenticatorId],
      );
      expect(removal.fields).toMatchObject({ AuthenticatorKind: 'Telegram', AuthenticatorName: 'My phone' });
    });
  });

  describe('the webhook', () => {
    it('refuses a call without the secret header or with a wrong one (401), deciding nothing; takes the right one', async () => {
      const chat = newChat();
      const user = await boundUser(chat);
      const opened = await waiting(user);
      const question = fake.lastBotMessage(chat.id)!;
      const update = {
        update_id: 999_001,
        callback_query: {
          id: 'q-1',
          from: { id: chat.id, is_bot: false, first_name: 'J' },
          chat_instance: 'x',
          data: question.keyboard![0][0].callback_data,
          message: { message_id: question.messageId, date: 0, chat: { id: chat.id, type: 'private' }, text: question.text },
        },
      };
      await t.http().post('/telegram/updates').send(update).expect(401);
      await t.http().post('/telegram/updates').set('X-Telegram-Bot-Api-Secret-Token', `${SECRET}x`).send(update).expect(401);
      await t.http().post('/telegram/updates').set('X-Telegram-Bot-Api-Secret-Token', SECRET.slice(0, -1)).send(update).expect(401);
      await t.http().post('/telegram/updates').set('X-Telegram-Bot-Api-Secret-Token', '').send(update).expect(401);
      expect(await statusOf(opened)).toBe('Pending');
      await t.http().post('/telegram/updates').set('X-Telegram-Bot-Api-Secret-Token', SECRET).send({ nope: 1 }).expect(400);
      const ok = await t.http().post('/telegram/updates').set('X-Telegram-Bot-Api-Secret-Token', SECRET).send(update).expect(200);
      expect(ok.body).toEqual({});
      expect(await statusOf(opened)).toBe('Approved');
    });
  });

  describe('Bot API failures', () => {
    it('a chat that blocked the bot: undeliverable at once, after one call', async () => {
      const chat = newChat();
      const user = await boundUser(chat);
      fake.blocked.add(chat.id);
      const calls = fake.callsOf('sendMessage').length;
      expect(await approval(user)).toEqual({ kind: 'undeliverable', failure: 'refused' });
      expect(fake.callsOf('sendMessage').length - calls).toBe(1);
    });

    it('429 with retry_after within the bound is retried; beyond it, undeliverable at once', async () => {
      const chat = newChat();
      const user = await boundUser(chat);
      fake.failNext('sendMessage', { kind: 'error', status: 429, retryAfter: 1 });
      let calls = fake.callsOf('sendMessage').length;
      expect((await approval(user)).kind).toBe('waiting');
      expect(fake.callsOf('sendMessage').length - calls).toBe(2);
      fake.failNext('sendMessage', { kind: 'error', status: 429, retryAfter: 60 });
      calls = fake.callsOf('sendMessage').length;
      expect(await approval(user)).toEqual({ kind: 'undeliverable', failure: 'throttled' });
      expect(fake.callsOf('sendMessage').length - calls).toBe(1);
    });

    it('5xx, garbage and a dropped connection are retried a bounded number of times, then undeliverable; the token is never logged', async () => {
      const chat = newChat();
      const user = await boundUser(chat);
      fake.failNext('sendMessage', { kind: 'error', status: 502, description: 'Bad Gateway' }, 2);
      let calls = fake.callsOf('sendMessage').length;
      expect((await approval(user)).kind).toBe('waiting');
      expect(fake.callsOf('sendMessage').length - calls).toBe(3);
      for (const failure of [{ kind: 'garbage' as const }, { kind: 'drop' as const }, { kind: 'error' as const, status: 500 }]) {
        fake.failNext('sendMessage', failure, 10);
        calls = fake.callsOf('sendMessage').length;
        expect(await approval(user)).toEqual({ kind: 'undeliverable', failure: 'unreachable' });
        expect(fake.callsOf('sendMessage').length - calls).toBe(4);
        fake.clearFailures();
      }
      const metrics = await t.http().get('/metrics');
      expect(metrics.text).toMatch(/^twofold_approval_delivery_failures_total\{factor="telegram",reason="unreachable"\} 3$/m);
      expect(logged.join('\n')).toContain('approval not delivered');
      expect(logged.join('\n')).not.toContain(TOKEN.split(':')[1]);
      expect(logged.join('\n')).not.toContain(SECRET);
      expect(metrics.text).not.toContain(TOKEN.split(':')[1]);
    });
  });
});

/** Waits for a condition the application reaches on its own (a message edited after the answer), yielding between looks. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
