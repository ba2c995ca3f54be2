import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');

const UNUSABLE = 'Access denied: your second factor cannot be used here. Set up an authenticator app or token.';
const DISABLED = 'Access denied: your second factor has been disabled. Contact your administrator.';

/**
 * One access decision: a user none of whose factors can answer a code is refused with the same
 * reason on every way of signing in (the page, `ra`, `md`, `ra/challenge`): their factor cannot be
 * used here (a phone, Telegram), or an administrator disabled every one of them. `ra/challenge` used
 * to tell a user with a phone to set up a second factor first.
 */
describe('a user without a usable factor, on every entry point', () => {
  let t: TestApp;
  let accountId: AccountId;
  let accountAuth: string;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    resource = await t.newResource(accountId, 'VPN');
  });
  afterAll(() => t.close());

  /** A user with a phone (a factor no entry point checks a code of) and, when asked, a TOTP token. */
  async function userWithPhone(identity: string, options: { totp: boolean }) {
    const res = await t.as(accountAuth).post('/users').send({ Identity: identity, Phone: '+79123456789' });
    expect(res.status).toBe(200);
    const userId: string = res.body.model.id;
    const totp = options.totp
      ? await newOtpAuthenticator(t.db, t.cipher, accountId, userId, { kind: 'TotpToken', key: KEY, now: t.clock.now() })
      : null;
    return { userId, totpId: totp?.id ?? null };
  }
  /** A user whose only factor, a TOTP token, an administrator disabled: `disableNow` does it. */
  async function userWithTotpOnly(identity: string) {
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    const totp = await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
    return { userId: user.id, totpId: totp.id };
  }
  const disable = async (userId: string, totpId: string) =>
    expect((await t.as(accountAuth).post(`/users/${userId}/authenticators/totptoken/${totpId}/disable`)).status).toBe(200);
  const call = async (path: 'ra' | 'md' | 'ra/challenge', body: object) => {
    const res = await t
      .as(resource)
      .post(`/access/requests/${path}`)
      .send({ language: 'en', ...body });
    expect(res.status).toBe(200);
    return res.body as { success: boolean; message: string | null; model: { status: string; replyMessage: string; id: string | null } };
  };
  const codeNow = () => generateTotp({ secret: KEY, time: t.clock.now().getTime() });

  it.each(['ra', 'md'] as const)(
    '%s: a phone only takes no code it did not send (ra sends one by SMS); every factor disabled says so',
    async (path) => {
      await userWithPhone(`${path}.phone`, { totp: false });
      const passCodes = path === 'ra' ? [codeNow()] : [null, codeNow()];
      for (const passCode of passCodes) {
        const phone = await call(path, { identity: `${path}.phone`, passCode });
        expect(phone).toMatchObject({ success: false, message: UNUSABLE, model: { status: 'Denied', replyMessage: UNUSABLE } });
      }
      const { userId, totpId } = await userWithTotpOnly(`${path}.disabled`);
      await disable(userId, totpId);
      expect((await call(path, { identity: `${path}.disabled`, passCode: codeNow() })).model).toMatchObject({
        status: 'Denied',
        replyMessage: DISABLED,
      });
    },
  );

  it('ra/challenge: a factor that stopped answering between the steps gets the same answer as ra, and the request is Denied', async () => {
    const phone = await userWithPhone('challenge.phone', { totp: true });
    const first = await call('ra', { identity: 'challenge.phone', passCode: null });
    expect(first.model.status).toBe('AwaitingAuthentication');
    await disable(phone.userId, phone.totpId as string);
    const second = await call('ra/challenge', { identity: 'challenge.phone', challenge: codeNow(), requestId: first.model.id });
    expect(second).toMatchObject({
      success: false,
      message: UNUSABLE,
      model: { id: first.model.id, status: 'Denied', replyMessage: UNUSABLE },
    });
    const [row] = await t.database.dataSource.query('SELECT status FROM access_requests WHERE id = $1', [first.model.id]);
    expect(row.status).toBe('Denied');

    const only = await userWithTotpOnly('challenge.disabled');
    const started = await call('ra', { identity: 'challenge.disabled', passCode: null });
    await disable(only.userId, only.totpId);
    expect(
      (await call('ra/challenge', { identity: 'challenge.disabled', challenge: codeNow(), requestId: started.model.id })).model,
    ).toMatchObject({
      status: 'Denied',
      replyMessage: DISABLED,
    });
  });

  it('the page: a phone only is never enrolled over; it gets the code prompt with "send a code by SMS", on the first visit and after the token stopped answering', async () => {
    const create = async (identity: string) => {
      const res = await t.as(resource).post('/access/requests').send({ identity, language: 'en' });
      return new URL(res.body.model.url).pathname;
    };
    await userWithPhone('page.phone', { totp: false });
    const shown = await t.browser().get(await create('page.phone'));
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('name="send" value="sms"');
    expect(shown.text).not.toContain('data-testid="secret"');

    const later = await userWithPhone('page.later', { totp: true });
    const browser = t.browser();
    const path = await create('page.later');
    const page = await browser.get(path);
    expect(page.text).toContain('name="code"');
    await disable(later.userId, later.totpId as string);
    const formToken = /name="formToken" value="([^"]+)"/.exec(page.text)?.[1];
    // the disabled token's code is no phone code: a wrong code on the request, and the phone is offered
    const posted = await browser.post(path).type('form').send({ code: codeNow(), formToken });
    expect(posted.status).toBe(200);
    expect(posted.text).toContain('That code is not right. 4 attempt(s) left.');
    expect(posted.text).toContain('name="send" value="sms"');
    expect(posted.text).not.toContain('data-testid="secret"');
  });
});
