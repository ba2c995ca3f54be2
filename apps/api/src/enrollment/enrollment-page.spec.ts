import { AccountId } from '@twofold/domain';
import { generateTotp, parseBase32Key } from '@twofold/otp';
import { AdministratorsRepository } from '@twofold/persistence';
import { newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { EnrollmentLinksService } from './enrollment-links.service';

describe('enrollment page $ACCESS_URL/enroll/<token>', () => {
  let t: TestApp;
  let links: EnrollmentLinksService;
  let accountId: AccountId;

  beforeAll(async () => {
    t = await startTestApp();
    links = t.app.get(EnrollmentLinksService);
    accountId = (await t.newAccount()).account.id;
  });
  afterAll(() => t.close());

  async function pendingAdmin(email: string) {
    return new AdministratorsRepository(t.db).insert(accountId, {
      identity: email,
      name: 'Ann Admin',
      role: 'Admin',
      status: 'Pending',
      registrationDate: t.clock.now(),
      lastLoginDate: null,
    });
  }

  const pathOf = (url: string) => new URL(url).pathname;
  const secretOf = (html: string) => {
    const match = /<code class="secret" id="secret" data-testid="secret">([A-Z2-7]+)<\/code>/.exec(html);
    if (!match) throw new Error('no secret on the page');
    return parseBase32Key(match[1]);
  };
  const codeNow = (secret: Buffer) => generateTotp({ secret, time: t.clock.now().getTime() });

  it('shows a QR code, the Base32 secret, the otpauth link and the code form, with a strict CSP', async () => {
    const admin = await pendingAdmin('ann@example.test');
    const link = await links.issue(accountId, { administratorId: admin.id }, { ttlMinutes: 60, email: admin.identity });
    const res = await t.http().get(pathOf(link.url));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['referrer-policy']).toBe('strict-origin');
    expect(res.text).toContain('<svg');
    expect(res.text).toMatch(/href="otpauth:\/\/totp\/Test%20account:ann%40example\.test\?[^"]*secret=[A-Z2-7]+/);
    expect(res.text).toContain('<form method="post">');
    expect(res.text).toContain('name="code"');
    expect(res.text).toContain('autocomplete="one-time-code"');
    expect(res.text).toContain('<html lang="en">');
    // no autofocus here: on a phone the keyboard would cover the QR code
    expect(res.text).not.toContain('autofocus');
    expect(res.text).toMatch(
      /<input id="code" name="code" inputmode="numeric" pattern="\[0-9\]\{6,8\}" minlength="6" maxlength="8" autocomplete="one-time-code" placeholder="123456"[^>]* required>/,
    );
    // the key in groups of four beside the unbroken one, and a Copy button run by the page's nonce only
    const key = /data-testid="secret">([A-Z2-7]+)<\/code>/.exec(res.text)?.[1] as string;
    expect(res.text).toContain(
      `<span class="key-groups" id="secret-groups" aria-hidden="true">${(key.match(/.{1,4}/g) ?? []).map((g) => `<span>${g}</span>`).join('')}</span>`,
    );
    const nonce = /script-src 'nonce-([^']+)'/.exec(res.headers['content-security-policy'])?.[1];
    expect(nonce).toBeDefined();
    expect(res.text.match(/<script[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
    expect(res.text).toMatch(/<button type="button" class="copy" id="copy-key"[^>]* hidden>/);
    expect(res.text).toContain('<a class="btn" href="otpauth://totp/');
    // a reload shows the same secret
    const again = await t.http().get(pathOf(link.url));
    expect(secretOf(again.text).equals(secretOf(res.text))).toBe(true);
  });

  it('activates a Pending administrator on the first valid code, once; the link is then used', async () => {
    const admin = await pendingAdmin('bob@example.test');
    const link = await links.issue(accountId, { administratorId: admin.id }, { ttlMinutes: 60, email: admin.identity });
    const secret = secretOf((await t.http().get(pathOf(link.url))).text);

    const wrong = await t
      .http()
      .post(pathOf(link.url))
      .type('form')
      .send({ code: '000000' === codeNow(secret) ? '111111' : '000000' });
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain('4 attempt(s) left');
    expect(wrong.text).toMatch(/<p class="error" role="alert" id="code-error">/);

    const done = await t
      .http()
      .post(pathOf(link.url))
      .type('form')
      .send({ code: codeNow(secret) });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Your second factor is set up');
    expect(done.text).toContain('<div class="status-icon tone-ok" aria-hidden="true"><svg');
    expect(done.headers['content-security-policy']).not.toContain('script-src');

    const [row] = await t.database.dataSource.query(
      'SELECT status, activated_at, second_factor_secret_enc FROM administrators WHERE id = $1',
      [admin.id],
    );
    expect(row.status).toBe('Active');
    expect(row.activated_at).not.toBeNull();
    expect(t.cipher.decrypt('authenticator.secret', row.second_factor_secret_enc).equals(secret)).toBe(true);

    const reused = await t
      .http()
      .post(pathOf(link.url))
      .type('form')
      .send({ code: codeNow(secret) });
    expect(reused.status).toBe(410);
    expect((await t.http().get(pathOf(link.url))).status).toBe(410);

    const events = await t.database.dataSource.query(
      `SELECT object, action, subject, success FROM journal_events WHERE object = 'Employee' AND subject = $1`,
      ['bob@example.test'],
    );
    expect(events).toEqual([{ object: 'Employee', action: 'Update', subject: 'bob@example.test', success: true }]);
  });

  it('gives a user a Totp authenticator whose enrolling time step is spent', async () => {
    const user = await newUser(t.db, accountId, 'carol', { now: t.clock.now() });
    const link = await links.issue(accountId, { userId: user.id }, { ttlMinutes: 60, email: null });
    const secret = secretOf((await t.http().get(pathOf(link.url))).text);
    expect(
      (
        await t
          .http()
          .post(pathOf(link.url))
          .type('form')
          .send({ code: codeNow(secret) })
      ).status,
    ).toBe(200);
    const [authenticator] = await t.database.dataSource.query(
      'SELECT kind, secret_enc, last_time_step FROM authenticators WHERE user_id = $1',
      [user.id],
    );
    expect(authenticator.kind).toBe('Totp');
    expect(Number(authenticator.last_time_step)).toBe(Math.floor(t.clock.now().getTime() / 30_000));
    expect(t.cipher.decrypt('authenticator.secret', authenticator.secret_enc).equals(secret)).toBe(true);
  });

  it('revokes the link after five wrong codes', async () => {
    const admin = await pendingAdmin('dan@example.test');
    const link = await links.issue(accountId, { administratorId: admin.id }, { ttlMinutes: 60, email: null });
    const secret = secretOf((await t.http().get(pathOf(link.url))).text);
    const wrong = codeNow(secret) === '123456' ? '654321' : '123456';
    for (let i = 0; i < 4; i += 1) expect((await t.http().post(pathOf(link.url)).type('form').send({ code: wrong })).status).toBe(200);
    expect((await t.http().post(pathOf(link.url)).type('form').send({ code: wrong })).status).toBe(410);
    expect(
      (
        await t
          .http()
          .post(pathOf(link.url))
          .type('form')
          .send({ code: codeNow(secret) })
      ).status,
    ).toBe(410);
    const [row] = await t.database.dataSource.query('SELECT status FROM administrators WHERE id = $1', [admin.id]);
    expect(row.status).toBe('Pending');
  });

  it('refuses an expired link, a replaced link and an unknown token', async () => {
    const admin = await pendingAdmin('eve@example.test');
    const first = await links.issue(accountId, { administratorId: admin.id }, { ttlMinutes: 10, email: null });
    const second = await links.issue(accountId, { administratorId: admin.id }, { ttlMinutes: 10, email: null });
    expect((await t.http().get(pathOf(first.url))).status).toBe(410);
    t.clock.advance(10 * 60_000);
    const expired = await t.http().get(pathOf(second.url)).set('Accept-Language', 'ru-RU,ru;q=0.9');
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('Срок действия ссылки истёк');
    expect(expired.text).toContain('<html lang="ru">');
    expect(expired.text).toContain('Запросите новую у администратора.');
    expect((await t.http().get('/access/enroll/' + 'A'.repeat(43))).status).toBe(404);
    expect((await t.http().get('/access/enroll/short')).status).toBe(404);
  });
});
