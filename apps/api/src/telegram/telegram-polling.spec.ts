import { randomBytes } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createDataSource } from '@twofold/persistence';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp, initApp } from '../app/create-app';
import { APP_CONFIG } from '../config/injection-tokens';
import { AppConfig } from '../config/app-config';
import { FakeTelegram } from '../../test/testing/fake-telegram';
import { startTestApp, TestApp, testConfig, asCaller } from '../../test/testing/test-app';
import { TelegramBindingService } from './telegram-binding.service';
import { TelegramPolling } from './telegram.module';

const TOKEN = `7000000003:${randomBytes(24).toString('base64url')}`;

/** Waits for something the instances reach on their own (taking the lock, a long poll), yielding between looks. */
async function until(condition: () => boolean, looks = 1_000): Promise<void> {
  for (let i = 0; i < looks && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(condition()).toBe(true);
}

/** Without a public URL: getUpdates by exactly one instance at a time, the holder of a PostgreSQL advisory lock. */
describe('Telegram bot (long polling)', () => {
  let fake: FakeTelegram;
  let a: TestApp;
  let b: NestFastifyApplication;
  let bData: DataSource;

  beforeAll(async () => {
    fake = await FakeTelegram.start({ token: TOKEN });
    // a webhook left registered from another setup: polling removes it, or every getUpdates would be a 409
    fake.webhook = { url: 'http://127.0.0.1:9/telegram/updates', secretToken: undefined };
    const telegram = { botToken: TOKEN, apiUrl: fake.url, updates: 'polling' as const };
    a = await startTestApp({ telegram });
    bData = createDataSource({ url: a.database.url, poolSize: 4, applicationName: 'twofold-test-b' });
    await bData.initialize();
    // a second instance of the same deployment: the same database and keys
    const encryptionKey = a.app.get<AppConfig>(APP_CONFIG).encryptionKey;
    b = await initApp(
      await createApp({ config: testConfig(a.database.url, { telegram, encryptionKey }), dataSource: bData, clock: a.clock }),
    );
  });
  let bClosed = false;
  let aClosed = false;
  afterAll(async () => {
    if (!bClosed) await b?.close();
    await bData?.destroy();
    if (aClosed) await a.database.drop();
    else await a?.close();
    await fake?.close();
  });

  const polling = (app: NestFastifyApplication) => app.get(TelegramPolling).polling;

  it('one instance polls; updates reach the handler; when it stops, the other takes over', async () => {
    await until(() => polling(a.app) || polling(b));
    expect(polling(a.app) && polling(b)).toBe(false);
    await until(() => fake.callsOf('getUpdates').length > 0);
    expect(fake.webhook).toBeNull();

    const account = await a.newAccount();
    /** binds a chat through `app`, which need not be the polling instance */
    const bind = async (app: NestFastifyApplication, chatId: number) => {
      const http = () => request(app.getHttpServer());
      const identity = `user-${randomBytes(4).toString('hex')}`;
      const user = await asCaller(account, http).post('/users').send({ Identity: identity }).expect(200);
      const link = await app.get(TelegramBindingService).createLink(account.account.id, user.body.model.id);
      const updateId = fake.upcomingUpdateId;
      expect(
        await fake.sendText({ id: chatId, languageCode: 'en' }, `/start ${new URL(link.url as string).searchParams.get('start')}`),
      ).toBeNull();
      await fake.confirmed(updateId);
      const listed = await asCaller(account, http).get(`/users/${user.body.model.id}/authenticators`);
      return listed.body.model;
    };
    expect(await bind(polling(a.app) ? b : a.app, 6_000_001)).toEqual({ Telegram: [{ id: expect.any(String), name: 'Telegram' }] });
    expect(fake.lastBotMessage(6_000_001)?.text).toMatch(/^Done: /);

    const [stopping, staying] = polling(a.app) ? [a.app, b] : [b, a.app];
    await stopping.close();
    if (stopping === b) bClosed = true;
    else aClosed = true;
    await until(() => polling(staying));
    expect(await bind(staying, 6_000_002)).toEqual({ Telegram: [{ id: expect.any(String), name: 'Telegram' }] });
    expect(fake.pollConflicts).toBe(0);
  });
});
