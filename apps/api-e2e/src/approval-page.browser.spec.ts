/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked by the assertions */
import { randomBytes } from 'node:crypto';
import { Browser, chromium } from 'playwright-core';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import {
  CallbackServer,
  chromiumAvailability,
  CHROMIUM_PATH,
  FramedMessage,
  FramingSite,
  REPORT_FRAME_LOAD,
  REPORT_MESSAGE,
  screenshotIfAsked,
  startCallbackServer,
  startFramingSite,
} from './browser';
import { bindTelegramChat, FakeTelegramProcess, startFakeTelegram } from './fake-telegram-process';
import { basic, cleanEnv, freePort, requireBundles, RunningApi, runCli, startApi } from './processes';

const STEP_TIMEOUT_MS = 30_000;
const POST_MESSAGE_ACTION = `javascript:window.parent.postMessage($\`AccessToken\`,'*')`;

const chromiumState = chromiumAvailability();
if (!chromiumState.available) console.warn(chromiumState.message);
const describeInBrowser = chromiumState.available || chromiumState.mustFail ? describe : describe.skip;

/**
 * The access page of a user who confirms on the phone, in headless Chromium against the built API:
 * the page shows a two-digit number, the user (the test, on the fake Bot API) presses the button with
 * that number in Telegram, and the page, waiting by its long poll, completes the callback with no
 * reload by the user: the form post to the client's site, or `postMessage` to the framing site. The
 * wrong number denies. A newcomer binds Telegram from the first visit by the deep link, and the page
 * notices it by itself. The API takes the bot's updates by long polling (`TELEGRAM_UPDATES=polling`).
 */
describeInBrowser('the access page waiting for an approval in Telegram, in headless Chromium', () => {
  let api: RunningApi;
  let fake: FakeTelegramProcess;
  let dropDatabase: (() => Promise<void>) | undefined;
  let callback: CallbackServer;
  let framing: FramingSite;
  let browser: Browser | undefined;
  let accountId: string;
  let accountAuth: string;
  let resourceAuth: string;
  let databaseUrl: string;
  let nextChat = 9_100_000_000;

  const post = async (path: string, body: unknown, auth: string) => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as any;
  };

  /** A user whose one factor is a Telegram chat, bound as `/start` binds it. */
  async function telegramUser(): Promise<{ identity: string; chatId: number }> {
    const identity = `tg-${randomBytes(4).toString('hex')}`;
    const chatId = nextChat++;
    const user = (await post('/users', { Identity: identity }, accountAuth)).model;
    await fake.send(chatId, 'hello');
    await bindTelegramChat(databaseUrl, accountId, user.id, chatId);
    return { identity, chatId };
  }

  /** The question the bot sent to the chat, once it is there. */
  async function questionIn(chatId: number) {
    for (;;) {
      const question = (await fake.questions()).find((message) => message.chatId === chatId);
      if (question) return question;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function pressNumber(chatId: number, pick: (numbers: number[]) => number) {
    const question = await questionIn(chatId);
    const buttons = (question.keyboard ?? []).flat().filter((button) => /^\d\d$/.test(button.text));
    expect(buttons).toHaveLength(3);
    const chosen = pick(buttons.map((button) => Number(button.text)));
    const button = buttons.find((b) => Number(b.text) === chosen) as { callback_data: string };
    await fake.press(chatId, question.messageId, button.callback_data);
  }

  beforeAll(async () => {
    if (!chromiumState.available) throw new Error(chromiumState.message);
    requireBundles();
    const token = `7000000004:${randomBytes(24).toString('base64url')}`;
    fake = await startFakeTelegram(token);
    const database = await createEmptyDatabase();
    dropDatabase = database.drop;
    databaseUrl = database.url;
    const port = await freePort();
    const env = cleanEnv({
      DATABASE_URL: database.url,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_API_URL: fake.url,
      // no public URL: the API takes the bot's updates by long polling the fake
      TELEGRAM_UPDATES: 'polling',
    });
    api = await startApi(env);
    const created = JSON.parse(
      runCli(['account', 'create', '--name', 'Phone', '--owner-email', 'o@phone.test', '--enable-api', '--json'], env).stdout,
    );
    accountId = created.account.id;
    accountAuth = basic(created.api.key, created.api.secret);
    const resource = (await post('/resources', { Name: 'Intranet' }, accountAuth)).model;
    resourceAuth = basic(resource.apiKey, resource.apiSecret);
    callback = await startCallbackServer();
    framing = await startFramingSite();
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'], timeout: STEP_TIMEOUT_MS });
  });

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await framing?.close();
    await api?.stop();
    await fake?.stop();
    await dropDatabase?.();
  });

  it('shows the number; the right button pressed in Telegram completes the callback by a form post', async () => {
    const user = await telegramUser();
    const request = (
      await post(
        '/access/requests',
        { identity: user.identity, callback: { action: `${callback.origin}/mfa`, target: '_self' } },
        resourceAuth,
      )
    ).model;
    const context = await (browser as Browser).newContext();
    const page = await context.newPage();
    await page.goto(request.url);
    const shown = Number(await page.locator('#approval-number').textContent());
    expect(shown).toBeGreaterThanOrEqual(10);
    await screenshotIfAsked(page, 'approval-page.png');
    await pressNumber(user.chatId, () => shown);
    const arrived = await callback.nextPost(STEP_TIMEOUT_MS);
    expect(arrived.fields.get('accessToken')).toEqual(expect.any(String));
    // on the client's site before the context closes: a close during that navigation can hang
    await page.waitForURL(`${callback.origin}/mfa`);
    await context.close();
  });

  it('in a frame of a postMessage request: the token goes to the parent once the right number is pressed', async () => {
    const user = await telegramUser();
    const request = (
      await post('/access/requests', { identity: user.identity, callback: { action: POST_MESSAGE_ACTION, target: '_self' } }, resourceAuth)
    ).model;
    const context = await (browser as Browser).newContext();
    const parent = await context.newPage();
    const messages: FramedMessage[] = [];
    let resolveMessage: () => void = () => undefined;
    const messaged = new Promise<void>((resolve) => (resolveMessage = resolve));
    await parent.exposeFunction(REPORT_MESSAGE, (message: FramedMessage) => {
      messages.push(message);
      resolveMessage();
    });
    await parent.exposeFunction(REPORT_FRAME_LOAD, () => undefined);
    await parent.goto(framing.pageUrl(request.url), { waitUntil: 'load' });
    const frame = parent.frameLocator('#mfa');
    const shown = Number(await frame.locator('#approval-number').textContent());
    await pressNumber(user.chatId, () => shown);
    await messaged;
    expect(messages[0]).toMatchObject({ origin: new URL(api.baseUrl).origin, fromFrame: true, data: expect.any(String) });
    await context.close();
  });

  it('the wrong number denies: the page ends on its refusal, and nothing reaches the client', async () => {
    const user = await telegramUser();
    const posts = callback.posts.length;
    const request = (
      await post(
        '/access/requests',
        { identity: user.identity, callback: { action: `${callback.origin}/mfa`, target: '_self' } },
        resourceAuth,
      )
    ).model;
    const context = await (browser as Browser).newContext();
    const page = await context.newPage();
    await page.goto(request.url);
    const shown = Number(await page.locator('#approval-number').textContent());
    const refused = page.waitForResponse((response) => response.request().method() === 'POST' && response.url() === request.url);
    await pressNumber(user.chatId, (numbers) => numbers.find((n) => n !== shown) as number);
    expect((await refused).status()).toBe(403);
    expect(callback.posts.length).toBe(posts);
    await context.close();
  });

  it('a newcomer binds Telegram by the deep link on the first visit: the page notices it and asks to approve', async () => {
    const identity = `new-${randomBytes(4).toString('hex')}`;
    const chatId = nextChat++;
    const request = (
      await post('/access/requests', { identity, callback: { action: `${callback.origin}/mfa`, target: '_self' } }, resourceAuth)
    ).model;
    const context = await (browser as Browser).newContext();
    const page = await context.newPage();
    await page.goto(request.url);
    const link = (await page.locator('#telegram-link').getAttribute('href')) as string;
    expect(link).toMatch(/^https:\/\/t\.me\/[A-Za-z0-9_]+\?start=[A-Za-z0-9_-]{1,64}$/);
    await fake.send(chatId, `/start ${new URL(link).searchParams.get('start')}`);
    // no reload by the test: the page's own check sees the binding and goes on to the approval
    const shown = Number(await page.locator('#approval-number').textContent({ timeout: STEP_TIMEOUT_MS }));
    await pressNumber(chatId, () => shown);
    expect((await callback.nextPost(STEP_TIMEOUT_MS)).fields.get('accessToken')).toEqual(expect.any(String));
    await page.waitForURL(`${callback.origin}/mfa`);
    await context.close();
  });
});
