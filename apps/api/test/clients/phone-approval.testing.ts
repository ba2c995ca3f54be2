import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { AccountId } from '@twofold/domain';
import { ApprovalWaiter } from '../../src/approvals/approval-waiter';
import { ApprovalsService } from '../../src/approvals/approvals.service';
import { AppConfig } from '../../src/config/app-config';
import { TelegramBindingService } from '../../src/telegram/telegram-binding.service';
import { FakeChat, FakeMessage, FakeTelegram } from '../testing/fake-telegram';
import { startTestApp, TestApp } from '../testing/test-app';
import { totpUser } from './client-kit';

/**
 * What the client specs of out-of-band approval share: the application with a Telegram bot whose Bot
 * API is the fake on loopback (webhook mode: the fake posts updates to the app), users whose chat is
 * bound through `/start`, and the person's side: waiting for the question and pressing its buttons.
 */
export interface PhoneApprovalKit {
  t: TestApp;
  fake: FakeTelegram;
  accountId: AccountId;
  /** a user with a bound Telegram chat, and with a TOTP key fob too when `withCode` */
  telegramUser(identity: string, options?: { withCode?: boolean; languageCode?: string }): Promise<PhoneUser>;
  /** the id of the bot's last message in the chat, to wait for the next question after it */
  lastMessageId(chat: FakeChat): number;
  /** resolves once `count` approval waits are held by the instance */
  waitsHeld(count: number): Promise<void>;
  /** no answer in time: the clock passes the wait's bound, and the waits see it */
  letWaitsExpire(): void;
  close(): Promise<void>;
}

export interface PhoneUser {
  userId: string;
  identity: string;
  chat: FakeChat;
  telegramAuthenticatorId: string;
  /** waits for the bot's question after message `after`, then presses `label`; returns the question as it was asked */
  press(label: string, after: number): Promise<FakeMessage>;
}

const TOKEN = `7000000002:${randomBytes(24).toString('base64url')}`;
const SECRET = randomBytes(24).toString('base64url');
let nextChat = 6_000_000_001;

export async function startPhoneApprovalKit(
  overrides: Partial<AppConfig> = {},
  runtime: Parameters<typeof startTestApp>[1] = {},
): Promise<PhoneApprovalKit> {
  const fake = await FakeTelegram.start({ token: TOKEN });
  const t = await startTestApp(
    {
      telegram: { botToken: TOKEN, apiUrl: fake.url, updates: 'webhook', webhookSecret: SECRET },
      ...overrides,
    },
    runtime,
  );
  await t.app.listen(0, '127.0.0.1');
  fake.webhook = { url: `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/telegram/updates`, secretToken: SECRET };
  const account = await t.newAccount({ name: 'Acme' });
  const accountId = account.account.id;
  const waiter = t.app.get(ApprovalWaiter);

  return {
    t,
    fake,
    accountId,
    async telegramUser(identity, { withCode = false, languageCode = 'en' } = {}) {
      const chat: FakeChat = { id: nextChat++, languageCode };
      const userId = withCode
        ? (await totpUser(t, accountId, identity)).user.id
        : (await t.http().post('/users').set('Authorization', account.authorization).send({ Identity: identity }).expect(200)).body.model
            .id;
      const link = await t.app.get(TelegramBindingService).createLink(accountId, userId);
      const payload = new URL(link.url as string).searchParams.get('start') as string;
      if ((await fake.sendText(chat, `/start ${payload}`)) !== 200) throw new Error('the bot did not take /start');
      const listed = await t.http().get(`/users/${userId}/authenticators`).set('Authorization', account.authorization).expect(200);
      return {
        userId,
        identity,
        chat,
        telegramAuthenticatorId: listed.body.model.Telegram[0].id,
        async press(label, after) {
          const question = await fake.question(chat.id, after);
          const asked = { ...question, keyboard: question.keyboard?.map((row) => [...row]) ?? null };
          const pressed = await fake.pressButton(chat, question, label);
          if (pressed.status !== 200) throw new Error(`the webhook answered ${pressed.status}`);
          return asked;
        },
      };
    },
    lastMessageId: (chat) => fake.lastBotMessage(chat.id)?.messageId ?? 0,
    async waitsHeld(count) {
      while (waiter.size < count) await new Promise((resolve) => setImmediate(resolve));
    },
    letWaitsExpire() {
      t.clock.advance(t.app.get(ApprovalsService).waitSeconds * 1000);
      waiter.expireDue();
    },
    async close() {
      await t.close();
      await fake.close();
    },
  };
}
