import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { hiddenInputs } from '../../../test/clients/client-kit';
import { FakeTelegram } from '../../../test/testing/fake-telegram';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

const TOKEN = `7000000002:${randomBytes(24).toString('base64url')}`;
const SECRET = randomBytes(24).toString('base64url');
const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');

/** With a Telegram bot configured, the "my factors" page binds a chat too, after the same fresh code. */
describe('self-service: the "my factors" page binds a Telegram chat', () => {
  let fake: FakeTelegram;
  let t: TestApp;

  beforeAll(async () => {
    fake = await FakeTelegram.start({ token: TOKEN });
    t = await startTestApp({ telegram: { botToken: TOKEN, apiUrl: fake.url, updates: 'webhook', webhookSecret: SECRET } });
    await t.app.listen(0, '127.0.0.1');
    fake.webhook = {
      url: `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/telegram/updates`,
      secretToken: SECRET,
    };
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('offers Telegram once a code is confirmed; the /start of the link binds the chat, which the list then shows', async () => {
    const { account } = await t.newAccount();
    const portal = await t.newResource(account.id, 'Portal');
    const user = await newUser(t.db, account.id, 'tg.user', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, account.id, user.id, { kind: 'TotpToken', key: KEY, name: 'Key fob', now: t.clock.now() });
    const code = () => generateTotp({ secret: KEY, time: t.clock.now().getTime() });
    const request = await t
      .as(portal)
      .post('/access/requests')
      .send({ identity: 'tg.user', callback: { action: 'https://sspr.corp.example/cb', target: '_self' } });
    const signInPath = new URL(request.body.model.url).pathname;
    const signIn = t.browser();
    const prompt = await signIn.get(signInPath);
    const granted = await signIn
      .post(signInPath)
      .type('form')
      .send({ formToken: hiddenInputs(prompt.text).get('formToken'), code: code() });
    const token = hiddenInputs(granted.text).get('accessToken') as string;
    const profile = await t.http().get('/self-service').set('Authorization', `Bearer ${token}`);
    expect(profile.body.model.policy.telegram).toBe(true);
    const link = await t.http().post('/self-service/create-enrollment-request').set('Authorization', `Bearer ${token}`);
    const path = new URL(link.body.model.url).pathname;

    const browser = t.browser();
    const page = await browser.get(path);
    expect(page.text).not.toContain('Add Telegram');
    const early = await browser.post(path).type('form').send({ action: 'telegram-start' });
    expect(early.text).not.toContain('data-testid="telegram-link"');
    t.clock.advance(30_000);
    const confirmed = await browser.post(path).type('form').send({ action: 'check', code: code() });
    expect(confirmed.text).toContain('Add Telegram');
    const telegram = await browser.post(path).type('form').send({ action: 'telegram-start' });
    const href = /href="(https:\/\/t\.me\/[^"?]+\?start=[^"]+)"/.exec(telegram.text)?.[1];
    expect(href).toMatch(/^https:\/\/t\.me\/\w+\?start=[A-Za-z0-9_-]+$/);
    const payload = new URL(href as string).searchParams.get('start') as string;
    expect(await fake.sendText({ id: 6_000_000_001, username: 'tg_user' }, `/start ${payload}`)).toBe(200);
    const after = await browser.post(path).type('form').send({ action: 'list' });
    expect([...after.text.matchAll(/data-kind="([a-z]+)"/g)].map((m) => m[1]).sort()).toEqual(['telegram', 'totp']);
  });
});
