import { AccountId } from '@twofold/domain';
import { generateTotp, parseBase32Key } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { hiddenInputs } from '../../../test/clients/client-kit';
import { startTestApp, TestApp } from '../../../test/testing/test-app';
import { accessPageToken } from '../../tokens/tokens.testing';

const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');

/**
 * The "my factors" page a portal opens: bound to the first browser, every change after a fresh code
 * of a factor the user has, the only factor never removed, names escaped.
 */
describe('self-service: the "my factors" page', () => {
  let t: TestApp;
  let accountId: AccountId;
  let portal: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountId = account.account.id;
    portal = await t.newResource(accountId, 'Portal');
  });
  afterAll(() => t.close());

  /** A user with a TOTP token of KEY, signed in at the portal; returns the page's path. */
  async function openLink(identity: string): Promise<string> {
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, name: 'Key fob', now: t.clock.now() });
    const request = await t
      .as(portal)
      .post('/access/requests')
      .send({ identity, callback: { action: 'https://sspr.corp.example/cb', target: '_self' } });
    const browser = t.browser();
    const path = new URL(request.body.model.url).pathname;
    const page = await browser.get(path);
    t.clock.advance(30_000);
    const granted = await browser
      .post(path)
      .type('form')
      .send({ formToken: hiddenInputs(page.text).get('formToken'), code: code() });
    const token = hiddenInputs(granted.text).get('accessToken') as string;
    const link = await t.http().post('/self-service/create-enrollment-request').set('Authorization', `Bearer ${token}`);
    return new URL(link.body.model.url).pathname;
  }
  const code = () => generateTotp({ secret: KEY, time: t.clock.now().getTime() });
  const labels = (html: string) => [...html.matchAll(/data-testid="factor-label">([^<]*)</g)].map((m) => m[1]);

  it('is bound to the first browser: a second browser with the same link gets nothing', async () => {
    const path = await openLink('first.browser');
    const mine = t.browser();
    const page = await mine.get(path);
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']?.[0]).toMatch(
      /^twofold-my-factors=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=900; HttpOnly; SameSite=Strict$/,
    );
    expect(labels(page.text)).toEqual(['Key fob']);
    const other = await t.browser().get(path);
    expect(other.status).toBe(403);
    expect(other.text).not.toContain('Key fob');
    const otherPost = await t.browser().post(path).type('form').send({ action: 'check', code: code() });
    expect(otherPost.status).toBe(403);
  });

  it('asks for a code before any change; adds an authenticator app with its real code; renames (escaped); removes, never the last', async () => {
    const path = await openLink('jane.doe');
    const browser = t.browser();
    await browser.get(path);
    const early = await browser.post(path).type('form').send({ action: 'add-start' });
    expect(early.text).not.toContain('data-testid="secret"');
    expect(early.text).toContain('Confirm it is you first.');

    const wrong = await browser.post(path).type('form').send({ action: 'check', code: '000000' });
    expect(wrong.text).toContain('Attempts left: 4');
    t.clock.advance(30_000);
    const confirmed = await browser.post(path).type('form').send({ action: 'check', code: code() });
    expect(confirmed.text).toContain('Confirmed.');

    const enroll = await browser.post(path).type('form').send({ action: 'add-start' });
    const secret = /data-testid="secret">([A-Z2-7]+)<\/code>/.exec(enroll.text)?.[1] as string;
    expect(secret).toBeDefined();
    const appCode = generateTotp({ secret: parseBase32Key(secret), time: t.clock.now().getTime() });
    const added = await browser.post(path).type('form').send({ action: 'add-confirm', code: appCode });
    expect(added.text).toContain('The authenticator app was added.');
    expect(labels(added.text)).toHaveLength(2);

    const ids = [...added.text.matchAll(/name="id" value="([^"]+)"/g)].map((m) => m[1]);
    const renamed = await browser.post(path).type('form').send({ action: 'rename', id: ids[0], name: '<script>alert(1)</script>' });
    expect(renamed.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(renamed.text).not.toContain('<script>alert(1)');

    const removed = await browser.post(path).type('form').send({ action: 'remove', id: ids[0] });
    expect(removed.text).toContain('The sign-in method was removed.');
    expect(labels(removed.text)).toHaveLength(1);
    const last = [...removed.text.matchAll(/name="id" value="([^"]+)"/g)].map((m) => m[1])[0];
    const kept = await browser.post(path).type('form').send({ action: 'remove', id: last });
    expect(kept.text).toContain('Your only sign-in method cannot be removed.');
    const rows = await t.database.dataSource.query(
      `SELECT 1 FROM authenticators a JOIN users u ON u.id = a.user_id WHERE u.identity = 'jane.doe'`,
    );
    expect(rows).toHaveLength(1);
  });

  it('refuses a form another site sent, and closes after five wrong codes', async () => {
    const path = await openLink('target.user');
    const browser = t.browser();
    await browser.get(path);
    const forged = await browser.post(path).set('Sec-Fetch-Site', 'cross-site').type('form').send({ action: 'check', code: code() });
    expect(forged.status).toBe(403);
    for (let i = 0; i < 4; i += 1) await browser.post(path).type('form').send({ action: 'check', code: '000000' });
    const closed = await browser.post(path).type('form').send({ action: 'check', code: '000000' });
    expect(closed.status).toBe(403);
    expect((await browser.get(path)).status).toBe(404);
  });

  it('expires after 15 minutes, and speaks Russian when the browser asks for it', async () => {
    const path = await openLink('late.user');
    const browser = t.browser();
    const ru = await browser.get(path).set('Accept-Language', 'ru-RU,ru;q=0.9');
    expect(ru.text).toContain('lang="ru"');
    expect(ru.text).toContain('Ваши способы входа');
    t.clock.advance(15 * 60_000);
    expect((await browser.get(path)).status).toBe(410);
  });

  it('a new link ends the older one of the same user', async () => {
    const token = await accessPageToken(t, portal.authorization, 'two.links');
    const first = await t.http().post('/self-service/create-enrollment-request').set('Authorization', `Bearer ${token}`);
    const second = await t.http().post('/self-service/create-enrollment-request').set('Authorization', `Bearer ${token}`);
    expect((await t.browser().get(new URL(first.body.model.url).pathname)).status).toBe(404);
    expect((await t.browser().get(new URL(second.body.model.url).pathname)).status).toBe(200);
  });
});
