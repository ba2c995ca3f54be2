import { AccountId } from '@twofold/domain';
import { generateHotp, generateTotp, parseBase32Key } from '@twofold/otp';
import { jwtVerify } from 'jose';
import { startTestApp, TestApp } from '../../../test/testing/test-app';
import { POST_MESSAGE_SCRIPT } from './access-page.view';

describe('access page $ACCESS_URL/<id>', () => {
  let t: TestApp;
  let accountId: AccountId;
  let accountAuth: string;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  /** one browser visits the pages and posts their forms: it keeps their cookies and sends them back */
  let browser: ReturnType<TestApp['browser']>;

  beforeAll(async () => {
    t = await startTestApp({ trustedProxies: ['10.9.0.0/16'] });
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    resource = await t.newResource(accountId, 'Intranet');
    browser = t.browser();
  });
  afterAll(() => t.close());

  async function createRequest(body: Record<string, unknown>): Promise<{ id: string; url: string; path: string }> {
    const res = await t.as(resource).post('/access/requests').send(body);
    expect(res.status).toBe(200);
    return { ...res.body.model, path: new URL(res.body.model.url).pathname };
  }
  const secretOf = (html: string) => {
    const match = /data-testid="secret">([A-Z2-7]+)<\/code>/.exec(html);
    if (!match) throw new Error('no secret on the page');
    return parseBase32Key(match[1]);
  };
  const formTokenOf = (html: string) => {
    const match = /<input type="hidden" name="formToken" value="([^"]+)">/.exec(html);
    if (!match) throw new Error('no form token on the page');
    return match[1];
  };
  const codeAt = (secret: Buffer, offsetMs = 0) => generateTotp({ secret, time: t.clock.now().getTime() + offsetMs });
  const wrongCode = (secret: Buffer) =>
    codeAt(secret) === '000000' || codeAt(secret, -30_000) === '000000' || codeAt(secret, 30_000) === '000000' ? '999999' : '000000';
  const post = (path: string, fields: Record<string, string>) => browser.post(path).type('form').send(fields);
  const requestRow = async (id: string) => (await t.database.dataSource.query('SELECT * FROM access_requests WHERE id = $1', [id]))[0];

  async function enrolledUser(identity: string): Promise<Buffer> {
    const request = await createRequest({ identity, language: 'en' });
    const page = await browser.get(request.path);
    const secret = secretOf(page.text);
    const done = await post(request.path, { code: codeAt(secret), formToken: formTokenOf(page.text) });
    expect(done.status).toBe(200);
    t.clock.advance(60_000);
    return secret;
  }

  it('registers an unknown identity, enrolls an authenticator app and returns a signed AccessToken to the callback', async () => {
    const request = await createRequest({
      Identity: 'alice',
      Email: 'alice@example.test',
      Language: 'en',
      Claims: { role: 'staff', iss: 'https://evil.example', sub: 'root' },
      Callback: { Action: 'https://app.example/sso/callback?x=1', Target: '_self' },
    });
    expect(request.url).toBe(`http://twofold.test/access/${request.id}`);

    const page = await browser.get(request.path).set('X-Forwarded-For', '203.0.113.9');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('<html lang="en">');
    expect(page.text).toContain('Set up your second factor for Intranet');
    expect(page.text).toContain('<svg');
    expect(page.text).toMatch(/href="otpauth:\/\/totp\/Test%20account:alice\?[^"]*secret=[A-Z2-7]+/);
    expect(page.text).toContain('<form method="post">');
    expect(page.text).toMatch(/<input id="code" name="code" inputmode="numeric"[^>]*autocomplete="one-time-code"/);
    expect(page.text).toContain('<button type="submit">');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // the two scripts (the Copy button of the key, the app offer's check) run by the page's nonce, nothing else may
    const enrollNonce = /script-src 'nonce-([^']+)'/.exec(page.headers['content-security-policy'])?.[1];
    expect(enrollNonce).toBeDefined();
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.text.match(/<script[^>]*>/g)).toEqual([`<script nonce="${enrollNonce}">`, `<script nonce="${enrollNonce}">`]);
    // the origin without the path: the callback POST carries Origin (clients check it against forgery), never the request id
    expect(page.headers['referrer-policy']).toBe('strict-origin');
    expect(page.text).toContain('<meta name="referrer" content="strict-origin">');
    // the key as one unbroken string for tests, copying and screen readers; groups of four for the eye
    const shownKey = /data-testid="secret">([A-Z2-7]+)<\/code>/.exec(page.text)?.[1] as string;
    const groups = (shownKey.match(/.{1,4}/g) ?? []).map((group) => `<span>${group}</span>`).join('');
    expect(groups).toContain(`<span>${shownKey.slice(0, 4)}</span><span>${shownKey.slice(4, 8)}</span>`);
    expect(page.text).toContain(`<span class="key-groups" id="secret-groups" aria-hidden="true">${groups}</span>`);
    expect(page.text).toMatch(/<button type="button" class="copy" id="copy-key"[^>]* hidden>/);
    // a button to the app above the QR code (shown on narrow screens), a plain link below the key
    expect(page.text.match(/href="otpauth:\/\/totp\//g)).toHaveLength(2);
    expect(page.text.indexOf('class="open-app-narrow"')).toBeLessThan(page.text.indexOf('class="qr"'));
    expect(page.text).toContain('@media (max-width: 40rem)');
    // enrollment: no autofocus (a phone's keyboard would cover the QR code); a 6-8 digit field
    expect(page.text).not.toContain('autofocus');
    expect(page.text).toMatch(
      /<input id="code" name="code" inputmode="numeric" pattern="\[0-9\]\{6,8\}" minlength="6" maxlength="8" autocomplete="one-time-code" placeholder="123456"[^>]* required>/,
    );
    expect(page.text).toContain('<label for="code">');
    expect(page.text).toContain(
      '<time datetime="' + new Date(t.clock.now().getTime() + 15 * 60_000).toISOString() + '">This request expires in 15 minutes.</time>',
    );
    const secret = secretOf(page.text);
    // a reload shows the same secret, bound to the request on the server
    expect(secretOf((await browser.get(request.path)).text).equals(secret)).toBe(true);

    const [user] = await t.database.dataSource.query(
      'SELECT id, identity, email, last_login FROM users WHERE account_id = $1 AND identity = $2',
      [accountId, 'alice'],
    );
    expect(user).toMatchObject({ identity: 'alice', email: 'alice@example.test', last_login: null });
    const created = await t.database.dataSource.query(
      `SELECT subject, success, additional_fields FROM journal_events WHERE object = 'User' AND action = 'Create'`,
    );
    expect(created).toEqual([
      {
        subject: 'alice',
        success: true,
        additional_fields: expect.objectContaining({ UserIdentity: 'alice', UserId: user.id, AccessRequestId: request.id }),
      },
    ]);

    const granted = await post(request.path, { code: codeAt(secret), formToken: formTokenOf(page.text) });
    expect(granted.status).toBe(200);
    expect(granted.text).toMatch(/<form method="post" action="https:\/\/app\.example\/sso\/callback\?x=1" target="_self" id="callback">/);
    const csp = granted.headers['content-security-policy'];
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(granted.text).toContain(`<script nonce="${nonce}">document.getElementById('callback').submit();</script>`);
    expect(csp).toContain("form-action 'self' https://app.example;");
    // Exactly one field, named accessToken (some clients read it case-sensitively)
    expect(granted.text.match(/<input[^>]*>/g)).toEqual([
      expect.stringMatching(/^<input type="hidden" name="accessToken" value="[^"]+">$/),
    ]);
    const token = /<input type="hidden" name="accessToken" value="([^"]+)">/.exec(granted.text)?.[1] as string;
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(resource.apiSecret), {
      issuer: 'http://twofold.test',
      audience: resource.apiKey,
      currentDate: t.clock.now(),
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toEqual({
      role: 'staff',
      iss: 'http://twofold.test',
      aud: resource.apiKey,
      sub: 'alice',
      jti: request.id,
      // a code was checked (a bypass says "bypass")
      amr: ['otp'],
      iat: t.clock.now().getTime() / 1000,
      exp: t.clock.now().getTime() / 1000 + 3600,
    });

    const row = await requestRow(request.id);
    expect(row).toMatchObject({ status: 'Granted', authenticator: 'Totp', user_id: user.id, failed_attempts: 0 });
    expect(row.granted_at.toISOString()).toBe(t.clock.now().toISOString());
    // the test client is not a trusted proxy: X-Forwarded-For is ignored
    expect(row.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(row.two_fa_device_ip).toBe(row.ip);
    const [after] = await t.database.dataSource.query('SELECT last_login FROM users WHERE id = $1', [user.id]);
    expect(after.last_login.toISOString()).toBe(t.clock.now().toISOString());
    const [authenticator] = await t.database.dataSource.query(
      'SELECT kind, last_time_step, secret_enc FROM authenticators WHERE user_id = $1',
      [user.id],
    );
    expect(authenticator.kind).toBe('Totp');
    expect(t.cipher.decrypt('authenticator.secret', authenticator.secret_enc).equals(secret)).toBe(true);

    // a Granted request cannot be reused
    const again = await browser.get(request.path);
    expect(again.status).toBe(410);
    expect(again.text).toContain('already been used');
    expect(again.text).not.toMatch(/accessToken/i);
    // final pages: a card with a large status icon and the next step
    expect(again.text).toContain('<div class="status-icon tone-info" aria-hidden="true"><svg');
    expect(again.text).toContain('Start signing in again from the application.');
    expect((await post(request.path, { code: codeAt(secret), formToken: formTokenOf(page.text) })).status).toBe(410);
  });

  it('prompts an enrolled user for a code, in Russian by default; one TOTP step is accepted once', async () => {
    const secret = await enrolledUser('bob');
    const first = await createRequest({ identity: 'BOB' });
    const page = await browser.get(first.path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="ru">');
    expect(page.text).toContain('Подтверждение входа в Intranet');
    expect(page.text).not.toContain('data-testid="secret"');
    expect(page.text).toMatch(/<input id="code" name="code" inputmode="numeric"[^>]*autocomplete="one-time-code"/);
    // the code is all this view asks for: the field has the focus; no script here
    expect(page.text).toMatch(/<input id="code"[^>]* required autofocus>/);
    expect(page.text).not.toContain('<script');
    expect(page.headers['content-security-policy']).not.toContain('script-src');
    expect(page.text).toContain('Запрос действует ещё 15 минут.');
    t.clock.advance(3 * 60_000 + 30_000);
    expect((await browser.get(first.path)).text).toContain('Запрос действует ещё 12 минут.');
    const code = codeAt(secret);
    const granted = await post(first.path, { code, formToken: formTokenOf(page.text) });
    expect(granted.status).toBe(200);
    expect(granted.text).toContain('Доступ разрешён');
    expect(granted.text).toContain('<div class="status-icon tone-ok" aria-hidden="true"><svg');
    expect(granted.text).toContain('Закройте эту страницу и вернитесь в приложение.');
    expect((await requestRow(first.id)).status).toBe('Granted');

    // the same code (same time step) on another request is a replay: refused, and not a wrong code
    const second = await createRequest({ identity: 'bob' });
    const secondPage = await browser.get(second.path);
    const replay = await post(second.path, { code, formToken: formTokenOf(secondPage.text) });
    expect(replay.status).toBe(200);
    expect(replay.text).toMatch(/<p class="error" role="alert" id="code-error">.*Этот код уже использован/);
    expect(replay.text).toMatch(/<input id="code"[^>]* aria-invalid="true" aria-describedby="code-error">/);
    expect(await requestRow(second.id)).toMatchObject({ status: 'AwaitingAuthentication', failed_attempts: 0 });
    // the next step's code is fine
    t.clock.advance(30_000);
    expect((await post(second.path, { code: codeAt(secret), formToken: formTokenOf(secondPage.text) })).status).toBe(200);
    expect((await requestRow(second.id)).status).toBe('Granted');
  });

  it('denies the request after five wrong codes; it cannot be used afterwards', async () => {
    const secret = await enrolledUser('carol');
    const request = await createRequest({ identity: 'carol', language: 'en' });
    const formToken = formTokenOf((await browser.get(request.path)).text);
    for (let left = 4; left >= 1; left -= 1) {
      const res = await post(request.path, { code: wrongCode(secret), formToken });
      expect(res.status).toBe(200);
      expect(res.text).toContain(`${left} attempt(s) left`);
    }
    const fifth = await post(request.path, { code: wrongCode(secret), formToken });
    expect(fifth.status).toBe(403);
    expect(fifth.text).toContain('Too many wrong codes');
    expect(await requestRow(request.id)).toMatchObject({ status: 'Denied', failed_attempts: 5 });
    const late = await post(request.path, { code: codeAt(secret), formToken });
    expect(late.status).toBe(403);
    expect(late.text).toContain('Access denied');
    expect((await browser.get(request.path)).status).toBe(403);
  });

  it('stops checking a user’s codes from one address after 5 wrong ones over their requests, for a minute (code-lockouts.spec.ts has more)', async () => {
    const secret = await enrolledUser('mona');
    const first = await createRequest({ identity: 'mona', language: 'en' });
    const firstToken = formTokenOf((await browser.get(first.path)).text);
    for (let i = 0; i < 5; i += 1) await post(first.path, { code: wrongCode(secret), formToken: firstToken });
    expect((await requestRow(first.id)).status).toBe('Denied');
    const second = await createRequest({ identity: 'mona', language: 'en' });
    const formToken = formTokenOf((await browser.get(second.path)).text);
    const refused = await post(second.path, { code: codeAt(secret), formToken });
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('Too many wrong codes. Try again in 1 minute');
    expect(await requestRow(second.id)).toMatchObject({ status: 'AwaitingAuthentication', failed_attempts: 0, authenticator: null });
    t.clock.advance(60_000);
    expect((await post(second.path, { code: codeAt(secret), formToken })).text).toContain('Access granted');
  });

  it('denies a locked user', async () => {
    await enrolledUser('dave');
    await t.database.dataSource.query('UPDATE users SET is_locked = true WHERE identity = $1', ['dave']);
    const request = await createRequest({ identity: 'dave', language: 'en' });
    const page = await browser.get(request.path);
    expect(page.status).toBe(403);
    expect(page.text).toContain('Your account is locked');
    expect(page.text).toContain('Contact your administrator.');
    expect(page.text).toContain('<div class="status-icon tone-stop" aria-hidden="true"><svg');
    expect((await requestRow(request.id)).status).toBe('Denied');
  });

  it('keeps a pending secret only while the request is awaiting: granted, expired or denied drops it', async () => {
    const granted = await createRequest({ identity: 'pending-granted', language: 'en' });
    const grantedPage = await browser.get(granted.path);
    expect((await requestRow(granted.id)).pending_secret_enc).not.toBeNull();
    await post(granted.path, { code: codeAt(secretOf(grantedPage.text)), formToken: formTokenOf(grantedPage.text) });
    expect(await requestRow(granted.id)).toMatchObject({ status: 'Granted', pending_secret_enc: null });

    const expired = await createRequest({ identity: 'pending-expired', language: 'en' });
    await browser.get(expired.path);
    t.clock.advance(15 * 60_000);
    try {
      expect((await browser.get(expired.path)).status).toBe(410);
    } finally {
      t.clock.advance(-15 * 60_000);
    }
    expect(await requestRow(expired.id)).toMatchObject({ status: 'Expired', pending_secret_enc: null });

    const denied = await createRequest({ identity: 'pending-denied', language: 'en' });
    const deniedPage = await browser.get(denied.path);
    const secret = secretOf(deniedPage.text);
    for (let i = 0; i < 5; i += 1) await post(denied.path, { code: wrongCode(secret), formToken: formTokenOf(deniedPage.text) });
    expect(await requestRow(denied.id)).toMatchObject({ status: 'Denied', pending_secret_enc: null });
  });

  it('expires a request 15 minutes after its creation', async () => {
    const request = await createRequest({ identity: 'erin', language: 'en' });
    const page = await browser.get(request.path);
    const secret = secretOf(page.text);
    t.clock.advance(14 * 60_000 + 30_000);
    expect((await browser.get(request.path)).text).toContain('This request expires in 1 minute.');
    t.clock.advance(30_000);
    const late = await post(request.path, { code: codeAt(secret), formToken: formTokenOf(page.text) });
    expect(late.status).toBe(410);
    expect(late.text).toContain('has expired');
    expect(late.text).toContain('<div class="status-icon tone-warn" aria-hidden="true"><svg');
    expect(late.text).toContain('Start signing in again from the application.');
    expect((await requestRow(request.id)).status).toBe('Expired');
    expect((await browser.get(request.path)).status).toBe(410);
  });

  it('refuses a form without its anti-forgery token, or with another request’s', async () => {
    const request = await createRequest({ identity: 'frank', language: 'en' });
    const other = await createRequest({ identity: 'frank', language: 'en' });
    const page = await browser.get(request.path);
    const secret = secretOf(page.text);
    const otherToken = formTokenOf((await browser.get(other.path)).text);
    const missing = await post(request.path, { code: codeAt(secret) });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('The form could not be accepted');
    expect((await post(request.path, { code: codeAt(secret), formToken: otherToken })).status).toBe(403);
    expect(await requestRow(request.id)).toMatchObject({ status: 'AwaitingAuthentication', failed_attempts: 0 });
    expect((await post(request.path, { code: codeAt(secret), formToken: formTokenOf(page.text) })).status).toBe(200);
  });

  it('accepts an HOTP token code and moves its counter; a used counter is refused', async () => {
    const users = await t.as(accountAuth).post('/users').send({ Identity: 'gina' });
    expect(users.status).toBeLessThan(300);
    const key = Buffer.from('00112233445566778899aabbccddeeff00112233', 'hex');
    const registered = await t
      .as(accountAuth)
      .post(`/users/${users.body.model.id}/authenticators/hotptoken`)
      .send({ Name: 'Token', Key: key.toString('hex'), Algorithm: 'SHA256' });
    expect(registered.status).toBeLessThan(300);
    const code = generateHotp({ secret: key, counter: 3, algorithm: 'SHA256' });
    const request = await createRequest({ identity: 'gina', language: 'en' });
    const formToken = formTokenOf((await browser.get(request.path)).text);
    expect((await post(request.path, { code, formToken })).status).toBe(200);
    expect(await requestRow(request.id)).toMatchObject({ status: 'Granted', authenticator: 'HotpToken' });
    const [row] = await t.database.dataSource.query(`SELECT hotp_counter FROM authenticators WHERE kind = 'HotpToken'`);
    expect(Number(row.hotp_counter)).toBe(4);
    const second = await createRequest({ identity: 'gina', language: 'en' });
    const secondToken = formTokenOf((await browser.get(second.path)).text);
    expect((await post(second.path, { code, formToken: secondToken })).text).toContain('That code has already been used.');
    expect(
      (await post(second.path, { code: generateHotp({ secret: key, counter: 4, algorithm: 'SHA256' }), formToken: secondToken })).status,
    ).toBe(200);
  });

  it('10 concurrent submissions of one valid code on one request: exactly one success', async () => {
    const secret = await enrolledUser('hank');
    const request = await createRequest({ identity: 'hank', language: 'en', callback: { action: 'https://app.example/cb' } });
    const formToken = formTokenOf((await browser.get(request.path)).text);
    const code = codeAt(secret);
    const results = await Promise.all(Array.from({ length: 10 }, () => post(request.path, { code, formToken })));
    const granted = results.filter((r) => r.text.includes('name="accessToken"'));
    expect(granted).toHaveLength(1);
    expect(granted[0].status).toBe(200);
    expect(results.filter((r) => r.status === 410 && r.text.includes('already been used'))).toHaveLength(9);
    expect(await requestRow(request.id)).toMatchObject({ status: 'Granted', failed_attempts: 0 });
  });

  it('10 concurrent enrolling submissions: one success, one authenticator', async () => {
    const request = await createRequest({ identity: 'iris', language: 'en', callback: { action: 'https://app.example/cb' } });
    const page = await browser.get(request.path);
    const secret = secretOf(page.text);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(request.path, { code: codeAt(secret), formToken: formTokenOf(page.text) })),
    );
    expect(results.filter((r) => r.text.includes('name="accessToken"'))).toHaveLength(1);
    const authenticators = await t.database.dataSource.query(
      `SELECT a.kind FROM authenticators a JOIN users u ON u.id = a.user_id WHERE u.identity = 'iris'`,
    );
    expect(authenticators).toEqual([{ kind: 'Totp' }]);
  });

  describe('framed pages and postMessage callbacks', () => {
    // what the AD FS adapter sends; in a template literal the backtick and the dollar sign are escaped
    const POST_MESSAGE = `javascript:window.parent.postMessage($\`AccessToken\`,'*')`;
    const frameAncestorsOf = (res: { headers: Record<string, string> }) =>
      /frame-ancestors ([^;]+);/.exec(res.headers['content-security-policy'])?.[1];
    const scriptsOf = (html: string) =>
      [...html.matchAll(/<script nonce="([^"]+)">([\s\S]*?)<\/script>/g)].map((m) => ({ nonce: m[1], text: m[2] }));
    const expectFramedBy = (res: { headers: Record<string, string> }, ancestors: string) => {
      expect(frameAncestorsOf(res)).toBe(ancestors);
      expect(res.headers['x-frame-options']).toBeUndefined();
    };
    const expectNotFramed = (res: { headers: Record<string, string> }) => {
      expect(frameAncestorsOf(res)).toBe("'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    };
    const setFrameOrigins = (resourceId: string, origins: string[]) =>
      t.database.dataSource.query('UPDATE resources SET frame_origins = $1 WHERE id = $2', [origins, resourceId]);
    const createWith = async (auth: string, body: Record<string, unknown>) => {
      const res = await t.as(auth).post('/access/requests').send(body);
      expect(res.body).toMatchObject({ success: true });
      return { ...res.body.model, path: new URL(res.body.model.url).pathname } as { id: string; path: string };
    };

    it('accepts the postMessage action; every page of its request may be framed by any origin; success runs the fixed script, no form', async () => {
      expect(POST_MESSAGE).toBe('javascript:window.parent.postMessage($' + "`AccessToken`,'*')");
      const request = await createRequest({ identity: 'nina', language: 'en', callback: { action: POST_MESSAGE, target: '_self' } });
      expect((await requestRow(request.id)).callback_action).toBe(POST_MESSAGE);

      const enroll = await browser.get(request.path);
      expect(enroll.status).toBe(200);
      expect(enroll.text).toContain('Set up your second factor for Intranet');
      expectFramedBy(enroll, '*');
      const secret = secretOf(enroll.text);
      const wrong = await post(request.path, { code: wrongCode(secret), formToken: formTokenOf(enroll.text) });
      expect(wrong.text).toContain('4 attempt(s) left');
      expectFramedBy(wrong, '*');

      const granted = await post(request.path, { code: codeAt(secret), formToken: formTokenOf(enroll.text) });
      expect(granted.status).toBe(200);
      expectFramedBy(granted, '*');
      const csp = granted.headers['content-security-policy'];
      expect(csp).toContain("form-action 'self';");
      expect(csp).not.toContain('javascript');
      expect(csp).not.toContain('unsafe-inline');
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      // one script, its text fixed: no request data in it, whatever the request
      expect(scriptsOf(granted.text)).toEqual([{ nonce, text: POST_MESSAGE_SCRIPT }]);
      expect(granted.text).not.toContain('<form');
      expect(granted.text).not.toContain('javascript:');
      expect(granted.text).not.toContain('name="accessToken"');
      expect(granted.text).toContain('<p role="status">Sign-in confirmed. You can continue in the application.</p>');
      const input = /<input type="hidden" id="accessToken" value="([^"]+)" data-target-origins="([^"]*)">/.exec(granted.text);
      expect(input?.[2]).toBe('*');
      const token = input?.[1] as string;
      expect(POST_MESSAGE_SCRIPT).not.toContain(token);
      const { payload } = await jwtVerify(token, new TextEncoder().encode(resource.apiSecret), {
        audience: resource.apiKey,
        currentDate: t.clock.now(),
      });
      expect(payload).toMatchObject({ sub: 'nina', jti: request.id });
      expect((await requestRow(request.id)).status).toBe('Granted');

      // the final page of the same request stays frameable
      const used = await browser.get(request.path);
      expect(used.status).toBe(410);
      expectFramedBy(used, '*');
      expect(used.text).not.toMatch(/accessToken/i);
    });

    it('shows the confirmation in Russian too', async () => {
      const secret = await enrolledUser('oleg');
      const request = await createRequest({ identity: 'oleg', callback: { action: POST_MESSAGE, target: '_self' } });
      const page = await browser.get(request.path);
      expectFramedBy(page, '*');
      const granted = await post(request.path, { code: codeAt(secret), formToken: formTokenOf(page.text) });
      expect(granted.text).toContain('<p role="status">Вход подтверждён. Можно продолжить работу в приложении.</p>');
      expect(scriptsOf(granted.text).map((script) => script.text)).toEqual([POST_MESSAGE_SCRIPT]);
    });

    it("frames a request of a resource with frameOrigins only by those origins, and posts the token to each (Keycloak's request)", async () => {
      const keycloak = await t.newResource(accountId, 'Keycloak');
      await setFrameOrigins(keycloak.resource.id, ['https://sso.example', 'http://127.0.0.1:8080']);
      const secret = await enrolledUser('pavel');
      const request = await createWith(keycloak.authorization, {
        identity: 'pavel',
        language: 'en',
        claims: { orig_user: 'pavel' },
        callback: { action: 'javascript: window.parent.postMessage( $`AccessToken`, "*" );', target: '_self' },
      });
      const page = await browser.get(request.path);
      expect(page.text).toContain('Confirm sign-in to Keycloak');
      expectFramedBy(page, 'https://sso.example http://127.0.0.1:8080');
      const granted = await post(request.path, { code: codeAt(secret), formToken: formTokenOf(page.text) });
      expectFramedBy(granted, 'https://sso.example http://127.0.0.1:8080');
      expect(granted.headers['content-security-policy']).toContain("form-action 'self';");
      const input = /<input type="hidden" id="accessToken" value="([^"]+)" data-target-origins="([^"]*)">/.exec(granted.text);
      expect(input?.[2]).toBe('https://sso.example http://127.0.0.1:8080');
      expect(scriptsOf(granted.text).map((script) => script.text)).toEqual([POST_MESSAGE_SCRIPT]);
      const { payload } = await jwtVerify(input?.[1] as string, new TextEncoder().encode(keycloak.apiSecret), {
        audience: keycloak.apiKey,
        currentDate: t.clock.now(),
      });
      expect(payload).toMatchObject({ sub: 'pavel', orig_user: 'pavel' });

      // _parent / _top requests of that resource: framed by the same origins; a _self https callback: not at all
      const parent = await createWith(keycloak.authorization, {
        identity: 'pavel',
        callback: { action: 'https://app.example/cb', target: '_parent' },
      });
      expectFramedBy(await browser.get(parent.path), 'https://sso.example http://127.0.0.1:8080');
      const own = await createWith(keycloak.authorization, {
        identity: 'pavel',
        callback: { action: 'https://app.example/cb', target: '_self' },
      });
      expectNotFramed(await browser.get(own.path));
    });

    it('refuses every other javascript:, data: or non-http(s) action with success false and a message', async () => {
      const nearMisses = [
        "javascript:window.parent.postMessage($`AccessToken`,'https://evil.example')",
        "javascript:window.parent.postMessage(document.cookie,'*')",
        "javascript:window.parent.postMessage($`AccessToken`,'*');alert(1)",
        "javascript:window.top.postMessage($`AccessToken`,'*')",
        "javascript:Window.Parent.PostMessage($`AccessToken`,'*')",
        'javascript:alert(document.domain)',
        "data:text/html,<script>parent.postMessage(1,'*')</script>",
        'vbscript:msgbox(1)',
        'ftp://files.example/cb',
      ];
      for (const action of nearMisses) {
        const res = await t
          .as(resource)
          .post('/access/requests')
          .send({ identity: 'quinn', callback: { action, target: '_self' } });
        expect({ action, success: res.body.success }).toEqual({ action, success: false });
        expect(res.body.message).toEqual(expect.stringContaining('Callback.Action'));
      }
      const [{ count }] = await t.database.dataSource.query(`SELECT count(*)::int AS count FROM access_requests WHERE identity = 'quinn'`);
      expect(count).toBe(0);
      // the scheme is case-insensitive, as in browsers
      const upper = await createRequest({
        identity: 'quinn',
        callback: { action: "JavaScript:window.parent.postMessage($`AccessToken`,'*')", target: '_self' },
      });
      expectFramedBy(await browser.get(upper.path), '*');
    });

    it('lets a request for an iframe (_parent or _top) be framed; a _self http(s) callback or none cannot be, on any of its pages', async () => {
      for (const target of ['_parent', '_top']) {
        const framed = await createRequest({ identity: 'jill', callback: { action: 'https://app.example/cb', target } });
        expectFramedBy(await browser.get(framed.path), '*');
      }
      const secret = await enrolledUser('ron');
      for (const callback of [{ action: 'https://app.example/cb', target: '_self' }, { action: 'http://localhost:8080/cb' }, undefined]) {
        const plain = await createRequest({ identity: 'ron', language: 'en', callback });
        const page = await browser.get(plain.path);
        expectNotFramed(page);
        const granted = await post(plain.path, { code: codeAt(secret), formToken: formTokenOf(page.text) });
        expect(granted.status).toBe(200);
        expectNotFramed(granted);
        expect(granted.text).not.toContain('id="accessToken"');
        expect(scriptsOf(granted.text).map((script) => script.text)).not.toContain(POST_MESSAGE_SCRIPT);
        expectNotFramed(await browser.get(plain.path));
        t.clock.advance(30_000);
      }
      expectNotFramed(await browser.get('/access/9b2f7f4e-0000-4000-8000-000000000000'));
      expectNotFramed(await browser.get('/access/not-a-uuid'));
    });
  });

  it('answers an unknown or malformed id with a 404 page, and leaves /access/requests to the API', async () => {
    const unknown = await browser.get('/access/9b2f7f4e-0000-4000-8000-000000000000').set('Accept-Language', 'en');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Sign-in request not found');
    expect((await browser.get('/access/not-a-uuid')).status).toBe(404);
    expect((await post('/access/not-a-uuid', { code: '123456' })).status).toBe(404);
    const api = await browser.get('/access/requests');
    expect(api.status).toBe(401);
    expect(api.body).toMatchObject({ model: null, success: false });
    expect((await t.http().post('/access/requests').send({ identity: 'x' })).status).toBe(401);
  });

  it('denies a new identity when the last free license was taken after the request was created', async () => {
    const full = await t.newAccount({ licenses: 1 });
    const fullResource = await t.newResource(full.account.id);
    const created = await t.as(fullResource).post('/access/requests').send({ identity: 'kate', language: 'en' });
    expect(created.body.success).toBe(true);
    expect((await t.as(full).post('/users').send({ Identity: 'first.come' })).status).toBe(200);
    // A new request for an unknown identity is now refused at once; kate's was made before
    expect((await t.as(fullResource).post('/access/requests').send({ identity: 'kate' })).body).toEqual({
      model: null,
      success: false,
      message: 'Users quota exceeded',
    });
    const path = new URL(created.body.model.url).pathname;
    const page = await browser.get(path);
    expect(page.status).toBe(403);
    expect(page.text).toContain('no free user licenses');
    expect((await requestRow(created.body.model.id)).status).toBe('Denied');
    const events = await t.database.dataSource.query(
      `SELECT subject, success FROM journal_events WHERE account_id = $1 AND object = 'User' AND action = 'Create' AND subject = 'kate'`,
      [full.account.id],
    );
    expect(events).toEqual([{ subject: 'kate', success: false }]);
  });

  it('keeps codes and secrets out of the page URL and out of the history', async () => {
    const request = await createRequest({ identity: 'liam', language: 'en' });
    const page = await browser.get(request.path);
    const secret = secretOf(page.text);
    await post(request.path, { code: codeAt(secret), formToken: formTokenOf(page.text) });
    const dump = JSON.stringify(await t.database.dataSource.query('SELECT * FROM access_requests WHERE id = $1', [request.id]));
    expect(dump).not.toContain(page.text.match(/data-testid="secret">([A-Z2-7]+)</)?.[1] as string);
  });
  describe('login CSRF: the form is bound to the browser that loaded the page, and to our origin', () => {
    const FORGED = 'The form could not be accepted';
    const cookieOf = (res: { headers: Record<string, unknown> }) => {
      const cookies = (res.headers['set-cookie'] ?? []) as string[];
      expect(cookies).toHaveLength(1);
      return cookies[0];
    };
    const pairOf = (setCookie: string) => setCookie.split(';')[0];
    const expectUntouched = async (id: string) =>
      expect(await requestRow(id)).toMatchObject({ status: 'AwaitingAuthentication', failed_attempts: 0, authenticator: null });

    it('refuses a POST without the page cookie, as a forged form: nothing is consumed', async () => {
      const secret = await enrolledUser('csrf-nocookie');
      const request = await createRequest({ identity: 'csrf-nocookie', language: 'en' });
      const page = await browser.get(request.path);
      const formToken = formTokenOf(page.text);
      // what a login-CSRF page makes a victim's browser send: the attacker's own form token and code, no cookie of that page
      for (const code of [codeAt(secret), wrongCode(secret)]) {
        const refused = await t.http().post(request.path).type('form').send({ code, formToken });
        expect(refused.status).toBe(403);
        expect(refused.text).toContain(FORGED);
        expect(refused.headers['set-cookie']).toBeUndefined();
      }
      await expectUntouched(request.id);
      expect((await post(request.path, { code: codeAt(secret), formToken })).status).toBe(200);
    });

    it("refuses one browser's cookie with the form token of another browser's page load", async () => {
      const secret = await enrolledUser('csrf-swap');
      const request = await createRequest({ identity: 'csrf-swap', language: 'en' });
      const [a, b] = [t.browser(), t.browser()];
      const pageA = await a.get(request.path);
      const pageB = await b.get(request.path);
      expect(pairOf(cookieOf(pageA))).not.toBe(pairOf(cookieOf(pageB)));
      expect(formTokenOf(pageA.text)).not.toBe(formTokenOf(pageB.text));
      for (const [who, token] of [
        [a, formTokenOf(pageB.text)],
        [b, formTokenOf(pageA.text)],
      ] as const) {
        for (const code of [codeAt(secret), wrongCode(secret)]) {
          const refused = await who.post(request.path).type('form').send({ code, formToken: token });
          expect(refused.status).toBe(403);
          expect(refused.text).toContain(FORGED);
        }
      }
      // the cookie sent by hand, as a script would: still the wrong browser
      const handMade = await t
        .http()
        .post(request.path)
        .set('Cookie', pairOf(cookieOf(pageA)))
        .type('form')
        .send({
          code: codeAt(secret),
          formToken: formTokenOf(pageB.text),
        });
      expect(handMade.status).toBe(403);
      await expectUntouched(request.id);
      expect(
        (
          await b
            .post(request.path)
            .type('form')
            .send({ code: codeAt(secret), formToken: formTokenOf(pageB.text) })
        ).status,
      ).toBe(200);
    });

    it('refuses a POST another origin sent (Origin, Sec-Fetch-Site) even with the right cookie and token; accepts our own origin', async () => {
      const secret = await enrolledUser('csrf-origin');
      const request = await createRequest({ identity: 'csrf-origin', language: 'en' });
      const formToken = formTokenOf((await browser.get(request.path)).text);
      const foreign: Array<Record<string, string>> = [
        { Origin: 'https://evil.example' },
        { Origin: 'http://twofold.test.evil.example' },
        { Origin: 'https://twofold.test' },
        { Origin: 'http://twofold.test:8080' },
        // what a browser sends from another site even when that site hides its Origin
        { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
        { 'Sec-Fetch-Site': 'same-site' },
        { Origin: 'http://twofold.test', 'Sec-Fetch-Site': 'cross-site' },
      ];
      for (const headers of foreign) {
        for (const code of [codeAt(secret), wrongCode(secret)]) {
          const refused = await browser.post(request.path).set(headers).type('form').send({ code, formToken });
          expect({ headers, status: refused.status }).toEqual({ headers, status: 403 });
          expect(refused.text).toContain(FORGED);
        }
      }
      await expectUntouched(request.id);
      // what Chromium sends from our own no-referrer page: Origin null, Sec-Fetch-Site same-origin
      const wrong = await browser
        .post(request.path)
        .set({ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })
        .type('form')
        .send({ code: wrongCode(secret), formToken });
      expect(wrong.text).toContain('4 attempt(s) left');
      const accepted = await browser
        .post(request.path)
        .set('Origin', 'http://twofold.test')
        .type('form')
        .send({ code: codeAt(secret), formToken });
      expect(accepted.status).toBe(200);
      expect((await requestRow(request.id)).status).toBe('Granted');
    });

    it('sets the cookie HttpOnly, SameSite=Strict, Path=/, for the life of a request; a reload and a wrong code keep its nonce', async () => {
      const secret = await enrolledUser('csrf-cookie');
      const request = await createRequest({ identity: 'csrf-cookie', language: 'en' });
      const page = await browser.get(request.path);
      const cookie = cookieOf(page);
      expect(cookie).toMatch(
        new RegExp(`^twofold-access-${request.id}=[A-Za-z0-9_-]{22}; Path=/; Max-Age=900; HttpOnly; SameSite=Strict$`),
      );
      // the nonce of the cookie is the one the form token carries
      expect(formTokenOf(page.text).startsWith(`${pairOf(cookie).split('=')[1]}.`)).toBe(true);
      expect(cookieOf(await browser.get(request.path))).toBe(cookie);
      const wrong = await post(request.path, { code: wrongCode(secret), formToken: formTokenOf(page.text) });
      expect(wrong.text).toContain('4 attempt(s) left');
      expect(cookieOf(wrong)).toBe(cookie);
      expect(formTokenOf(wrong.text)).toBe(formTokenOf(page.text));
      // a final page sets nothing
      expect((await t.http().get('/access/9b2f7f4e-0000-4000-8000-000000000000')).headers['set-cookie']).toBeUndefined();
    });

    it('a page meant for a frame: over plain http a cross-site frame keeps no cookie, so our own Origin is required instead', async () => {
      const POST_MESSAGE = `javascript:window.parent.postMessage($\`AccessToken\`,'*')`;
      const secret = await enrolledUser('csrf-framed');
      const request = await createRequest({ identity: 'csrf-framed', language: 'en', callback: { action: POST_MESSAGE, target: '_self' } });
      const page = await t.http().get(request.path);
      expect(cookieOf(page)).toMatch(/; HttpOnly; SameSite=Strict$/);
      const formToken = formTokenOf(page.text);
      const cookieless = (origin?: string) => {
        const req = t.http().post(request.path);
        return (origin ? req.set('Origin', origin) : req).type('form');
      };
      for (const origin of [undefined, 'https://evil.example', 'null']) {
        const refused = await cookieless(origin).send({ code: wrongCode(secret), formToken });
        expect({ origin, status: refused.status }).toEqual({ origin, status: 403 });
      }
      const crossSite = await cookieless('http://twofold.test')
        .set('Sec-Fetch-Site', 'cross-site')
        .send({ code: wrongCode(secret), formToken });
      expect(crossSite.status).toBe(403);
      // another browser's cookie is refused even with our Origin: a cookie, when sent, must match
      const other = t.browser();
      await other.get(request.path);
      expect(
        (
          await other
            .post(request.path)
            .set('Origin', 'http://twofold.test')
            .type('form')
            .send({ code: codeAt(secret), formToken })
        ).status,
      ).toBe(403);
      await expectUntouched(request.id);
      // the frame's own form in Chromium: no cookie came back, Origin null (no-referrer), Sec-Fetch-Site same-origin
      const wrong = await cookieless('null')
        .set('Sec-Fetch-Site', 'same-origin')
        .send({ code: wrongCode(secret), formToken });
      expect(wrong.text).toContain('4 attempt(s) left');
      const accepted = await cookieless('http://twofold.test').send({ code: codeAt(secret), formToken });
      expect(accepted.status).toBe(200);
      expect(accepted.text).toContain('id="accessToken"');
    });
  });
});

describe('access page behind TRUSTED_PROXIES', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ trustedProxies: ['127.0.0.1', '::1'] });
  });
  afterAll(() => t.close());

  it('records the address X-Forwarded-For gives when the peer is a trusted proxy', async () => {
    const account = await t.newAccount();
    const resource = await t.newResource(account.account.id);
    const created = await t.as(resource).post('/access/requests').send({ identity: 'max' });
    const path = new URL(created.body.model.url).pathname;
    expect((await t.http().get(path).set('X-Forwarded-For', '198.51.100.7, 127.0.0.1')).status).toBe(200);
    const [row] = await t.database.dataSource.query('SELECT ip, remote_host FROM access_requests WHERE id = $1', [created.body.model.id]);
    expect(row).toEqual({ ip: '198.51.100.7', remote_host: '198.51.100.7' });
  });
});

describe('access page served over https (ACCESS_URL https://…): the cookie of a top-level page and of a framed one', () => {
  let t: TestApp;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  beforeAll(async () => {
    t = await startTestApp({
      publicUrl: 'https://twofold.test',
      accessUrl: 'https://twofold.test/access',
      tokenIssuer: 'https://twofold.test',
    });
    resource = await t.newResource((await t.newAccount()).account.id);
  });
  afterAll(() => t.close());

  const POST_MESSAGE = `javascript:window.parent.postMessage($\`AccessToken\`,'*')`;
  const pageOf = async (body: Record<string, unknown>) => {
    const created = await t.as(resource).post('/access/requests').send(body);
    const path = new URL(created.body.model.url).pathname;
    const page = await t.http().get(path);
    const formToken = /name="formToken" value="([^"]+)"/.exec(page.text)?.[1] as string;
    return { id: created.body.model.id as string, path, setCookie: (page.headers['set-cookie'] as unknown as string[])[0], formToken };
  };
  const failedAttempts = async (id: string) =>
    (await t.database.dataSource.query('SELECT failed_attempts FROM access_requests WHERE id = $1', [id]))[0].failed_attempts;

  it('a page never framed: __Host- prefix, Secure, SameSite=Strict; a POST needs the cookie even with our Origin', async () => {
    const page = await pageOf({ identity: 'https-top', language: 'en' });
    expect(page.setCookie).toMatch(
      new RegExp(`^__Host-twofold-access-${page.id}=[A-Za-z0-9_-]{22}; Path=/; Max-Age=900; HttpOnly; Secure; SameSite=Strict$`),
    );
    const cookie = page.setCookie.split(';')[0];
    const cookieless = await t
      .http()
      .post(page.path)
      .set('Origin', 'https://twofold.test')
      .type('form')
      .send({ code: '000000', formToken: page.formToken });
    expect(cookieless.status).toBe(403);
    // the same name without its prefix is another cookie, one a sibling subdomain could have planted
    const unprefixed = await t
      .http()
      .post(page.path)
      .set('Cookie', cookie.replace('__Host-', ''))
      .type('form')
      .send({ code: '000000', formToken: page.formToken });
    expect(unprefixed.status).toBe(403);
    expect(await failedAttempts(page.id)).toBe(0);
    const wrongCode = await t
      .http()
      .post(page.path)
      .set('Cookie', cookie)
      .set('Origin', 'https://twofold.test')
      .type('form')
      .send({ code: '000000', formToken: page.formToken });
    expect(wrongCode.status).toBe(200);
    expect(wrongCode.text).toContain('attempt(s) left');
    expect(await failedAttempts(page.id)).toBe(1);
  });

  it('a page meant for a frame: SameSite=None; Partitioned (CHIPS), so a cross-site iframe gets it back; without it, our Origin is required', async () => {
    const page = await pageOf({ identity: 'https-framed', language: 'en', callback: { action: POST_MESSAGE, target: '_self' } });
    expect(page.setCookie).toMatch(
      new RegExp(`^__Host-twofold-access-${page.id}=[A-Za-z0-9_-]{22}; Path=/; Max-Age=900; HttpOnly; Secure; SameSite=None; Partitioned$`),
    );
    const cookie = page.setCookie.split(';')[0];
    const refused = await t.http().post(page.path).type('form').send({ code: '000000', formToken: page.formToken });
    expect(refused.status).toBe(403);
    expect(await failedAttempts(page.id)).toBe(0);
    const withCookie = await t
      .http()
      .post(page.path)
      .set('Cookie', cookie)
      .type('form')
      .send({ code: '000000', formToken: page.formToken });
    expect(withCookie.status).toBe(200);
    const withOrigin = await t
      .http()
      .post(page.path)
      .set('Origin', 'https://twofold.test')
      .type('form')
      .send({ code: '000000', formToken: page.formToken });
    expect(withOrigin.status).toBe(200);
    expect(await failedAttempts(page.id)).toBe(2);
  });
});
