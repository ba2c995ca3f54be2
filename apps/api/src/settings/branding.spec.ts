import { AccountId } from '@twofold/domain';
import { parseOtpauthUri } from '@twofold/otp';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { outboxMails } from '../../test/testing/outbox';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/** The account's display name on its pages, mails and authenticator-app entries. */
describe('PUT /settings/branding {displayName}', () => {
  let t: TestApp;
  let accountId: AccountId;
  let authorization: string;
  let other: { authorization: string; accountId: AccountId };

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount({ name: 'acme-prod' });
    accountId = account.account.id;
    authorization = account.authorization;
    const second = await t.newAccount({ name: 'other-co' });
    other = { authorization: second.authorization, accountId: second.account.id };
  });
  afterAll(() => t.close());

  const put = (body: unknown, auth = authorization) =>
    t
      .as(auth)
      .put('/settings/branding')
      .send(body as object);
  const get = (auth = authorization) => t.as(auth).get('/settings/branding');
  const path = (url: string) => new URL(url).pathname;
  const otpauthOf = (html: string) => {
    const match = /<a class="btn" href="(otpauth:\/\/[^"]+)"/.exec(html);
    if (!match) throw new Error('no otpauth link on the page');
    return match[1].replace(/&amp;/g, '&');
  };
  const brandOf = (html: string) => /<div class="brand">.*?<span>([^<]*)<\/span><\/div>/.exec(html)?.[1];
  const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
  async function accessRequest(identity: string, auth: string): Promise<string> {
    const res = await t.as(auth).post('/access/requests').send({ identity, language: 'en' });
    expect(res.status).toBe(200);
    return path(res.body.model.url);
  }

  it("is the account's name by default (GET), on pages and in the authenticator-app entry", async () => {
    expect((await get()).body).toEqual({ model: { displayName: 'acme-prod', isDefault: true }, success: true, message: null });
    const resource = await t.newResource(accountId, 'VPN');
    const page = await t.http().get(await accessRequest('default.user', resource.authorization));
    expect(brandOf(page.text)).toBe('acme-prod');
    const uri = otpauthOf(page.text);
    expect(uri).toMatch(/^otpauth:\/\/totp\/acme-prod:default\.user\?/);
    expect(parseOtpauthUri(uri)).toMatchObject({ issuer: 'acme-prod', account: 'default.user' });
  });

  it.each([
    [{ displayName: 'Acme: Bank' }, "displayName must not contain ':'."],
    [{ displayName: 'x'.repeat(65) }, 'displayName must be at most 64 characters.'],
    [{ displayName: '   ' }, 'displayName must not be empty.'],
    [{ displayName: 7 }, 'displayName must be a string.'],
    [{ displayName: 'Acme\r\nBank' }, 'displayName must not contain control characters or line breaks.'],
    [{}, 'displayName is required (a name, or null for the account name).'],
  ])('refuses %p with 400 naming the rule, and changes nothing', async (body, message) => {
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect((await get()).body.model).toEqual({ displayName: 'acme-prod', isDefault: true });
  });

  it('sets a trimmed name of 64 characters at most, journaled as Accounts ChangeDisplayName; another account keeps its own', async () => {
    const longest = 'Ä'.repeat(64);
    expect((await put({ displayName: longest })).status).toBe(200);
    const res = await put({ DisplayName: '  Acme Bank & Co ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ model: { displayName: 'Acme Bank & Co', isDefault: false }, success: true, message: null });
    expect((await get()).body.model).toEqual({ displayName: 'Acme Bank & Co', isDefault: false });
    expect((await get(other.authorization)).body.model).toEqual({ displayName: 'other-co', isDefault: true });

    const events = await journalOfToday(t, authorization, 'object=Accounts');
    // the six refusals above are journaled as failures, as every refused journaled call is
    expect(events.filter((e) => !e.success).map((e) => e.action)).toEqual(Array(6).fill('ChangeDisplayName'));
    expect(events.filter((e) => e.success).map((e) => [e.action, e.success, e.additionalFields])).toEqual([
      ['ChangeDisplayName', true, { PreviousDisplayName: 'acme-prod', DisplayName: longest }],
      ['ChangeDisplayName', true, { PreviousDisplayName: longest, DisplayName: 'Acme Bank & Co' }],
    ]);
    expect(await journalOfToday(t, other.authorization, 'object=Accounts')).toEqual([]);
  });

  it('shows on the access page (brand, title, escaped) and issues the authenticator-app entry; Twofold is the small print', async () => {
    const resource = await t.newResource(accountId, 'Intranet');
    const page = await t.http().get(await accessRequest('jane@corp.test', resource.authorization));
    expect(page.status).toBe(200);
    expect(brandOf(page.text)).toBe('Acme Bank &amp; Co');
    expect(titleOf(page.text)).toMatch(/ · Acme Bank &amp; Co$/);
    expect(page.text).toContain('<p class="product">Twofold</p>');
    const uri = otpauthOf(page.text);
    // the label and the issuer parameter, percent-encoded: a space is %20, '&' %26, '@' %40
    expect(uri).toMatch(/^otpauth:\/\/totp\/Acme%20Bank%20%26%20Co:jane%40corp\.test\?secret=[A-Z2-7]+&issuer=Acme%20Bank%20%26%20Co&/);
    expect(parseOtpauthUri(uri)).toMatchObject({ issuer: 'Acme Bank & Co', account: 'jane@corp.test' });
    // another account's page keeps its own name
    const theirs = await t.newResource(other.accountId, 'Mail');
    const their = await t.http().get(await accessRequest('jane@corp.test', theirs.authorization));
    expect(brandOf(their.text)).toBe('other-co');
    expect(parseOtpauthUri(otpauthOf(their.text)).issuer).toBe('other-co');
  });

  it('the page of an unknown request has no account: the product is the brand, without small print', async () => {
    const page = await t.http().get('/access/00000000-0000-4000-8000-000000000000');
    expect(brandOf(page.text)).toBe('Twofold');
    expect(page.text).not.toContain('class="product"');
  });

  it("shows on the enrollment page and in the enrollment and invitation mails; null goes back to the account's name", async () => {
    const before = outboxMails(t).length;
    const created = await t
      .as(authorization)
      .post('/users')
      .send({ identity: 'mailed.user', email: 'mailed@example.test', enrollmentLink: { to: 'email', ttl: 30, language: 'en' } });
    expect(created.status).toBe(200);
    const invited = await t
      .as(authorization)
      .post('/admins')
      .send({ email: 'ivy@example.test', name: 'Ivy', role: 'Support 1', language: 'EN' });
    expect(invited.status).toBe(200);
    const [userMail, adminMail] = outboxMails(t).slice(before);
    expect(userMail).toContain('Subject: Acme Bank & Co: set up your second factor');
    expect(userMail).toContain('Acme Bank & Co asks you to set up your second factor');
    expect(userMail).toContain('The link works once, for 30 minutes: until 20 May 2026, 10:30 UTC.');
    expect(userMail).toContain('Content-Type: text/html');
    expect(userMail).toContain('Acme Bank &amp; Co asks you');
    expect(adminMail).toContain('Subject: Acme Bank & Co: you are invited as an administrator');
    expect(adminMail).toContain('You were registered as an administrator of Acme Bank & Co.');

    const link = /http:\/\/twofold\.test\/access\/enroll\/[A-Za-z0-9_-]{43}/.exec(userMail)?.[0] as string;
    const page = await t.http().get(path(link));
    expect(page.status).toBe(200);
    expect(brandOf(page.text)).toBe('Acme Bank &amp; Co');
    expect(parseOtpauthUri(otpauthOf(page.text))).toMatchObject({ issuer: 'Acme Bank & Co', account: 'mailed.user' });

    const reset = await put({ displayName: null });
    expect(reset.body.model).toEqual({ displayName: 'acme-prod', isDefault: true });
    const again = await t.http().get(path(link));
    expect(brandOf(again.text)).toBe('acme-prod');
    expect(parseOtpauthUri(otpauthOf(again.text)).issuer).toBe('acme-prod');
  });

  it("re-sends an administrator's invitation in the language of the first one (Russian when none was given)", async () => {
    const invite = async (email: string, language?: string) => {
      const res = await t.as(authorization).post('/admins').send({ email, role: 'Support 1', language });
      expect(res.status).toBe(200);
      return res.body.id as string;
    };
    const english = await invite('resent.en@example.test', 'en');
    const russian = await invite('resent.ru@example.test');
    const before = outboxMails(t).length;
    for (const id of [english, russian]) {
      const res = await t.as(authorization).post(`/v2/admins/resend-invitation-email/${id}`);
      expect(res.status).toBe(200);
    }
    const [en, ru] = outboxMails(t).slice(before);
    expect(en).toContain('To: resent.en@example.test');
    expect(en).toContain(': you are invited as an administrator');
    expect(ru).toContain('To: resent.ru@example.test');
    expect(ru).toMatch(/Subject: =\?UTF-8\?/);
    expect(ru).not.toContain('you are invited as an administrator');
  });

  it('writes mails in Russian unless Language says en, also for POST /users/{id}/enroll; another Language is a 400', async () => {
    const user = await t.as(authorization).post('/users').send({ identity: 'ru.user', email: 'ru@example.test' });
    expect(user.status).toBe(200);
    const enroll = (body: object) => t.as(authorization).post(`/users/${user.body.model.id}/enroll`).send(body);
    const before = outboxMails(t).length;
    expect((await enroll({ email: 'ru@example.test', ttl: 120 })).status).toBe(200);
    expect((await enroll({ email: 'ru@example.test', ttl: 60, language: 'en' })).status).toBe(200);
    const [ru, en] = outboxMails(t).slice(before);
    // the Russian subject is MIME-encoded in the header; the body says who asks, for how long and until when
    expect(ru).toMatch(/Subject: =\?UTF-8\?/);
    expect(decodeQuotedPrintable(ru)).toContain('acme-prod просит вас настроить второй фактор');
    expect(decodeQuotedPrintable(ru)).toContain('Ссылка действует один раз, 2 часа: до 20 мая 2026 г., 12:00 UTC.');
    expect(en).toContain('The link works once, for 1 hour: until 20 May 2026, 11:00 UTC.');

    for (const res of [
      await enroll({ email: 'ru@example.test', ttl: 60, language: 'de' }),
      await t.as(authorization).post('/admins').send({ email: 'de@example.test', role: 'Support 1', language: 'de' }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Language must be "ru" or "en".');
    }
    const refused = await t
      .as(authorization)
      .post('/users')
      .send({ identity: 'de.user', email: 'de@example.test', enrollmentLink: { to: 'email', language: 1 } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('EnrollmentLink.Language must be "ru" or "en".');
  });
});

/** The text of a quoted-printable mail body (soft line breaks are already joined by outboxMails). */
function decodeQuotedPrintable(eml: string): string {
  return Buffer.from(eml.replace(/=([0-9A-F]{2})/g, (_all, hex: string) => `%${hex}`).replace(/%(?![0-9A-F]{2})/g, '%25'), 'latin1')
    .toString('latin1')
    .replace(/(%[0-9A-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
}
