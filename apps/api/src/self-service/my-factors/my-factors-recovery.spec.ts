import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { hiddenInputs } from '../../../test/clients/client-kit';
import { startTestApp, TestApp } from '../../../test/testing/test-app';

const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');

/** Recovery codes on the "my factors" page: made after a fresh code, shown once, counted down, with a warning when few are left. */
describe('self-service: recovery codes on the "my factors" page', () => {
  let t: TestApp;
  let accountId: AccountId;
  let portal: Awaited<ReturnType<TestApp['newResource']>>;
  let vpn: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    portal = await t.newResource(accountId, 'Portal');
    vpn = await t.newResource(accountId, 'VPN');
  });
  afterAll(() => t.close());

  const code = () => generateTotp({ secret: KEY, time: t.clock.now().getTime() });

  /** A user with a TOTP token of KEY, signed in at the portal; the page's path, opened in `browser`. */
  async function openPage(identity: string, browser: ReturnType<TestApp['browser']>): Promise<string> {
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
    const request = await t
      .as(portal)
      .post('/access/requests')
      .send({ identity, callback: { action: 'https://sspr.corp.example/cb', target: '_self' } });
    const access = t.browser();
    const accessPath = new URL(request.body.model.url).pathname;
    const page = await access.get(accessPath);
    const granted = await access
      .post(accessPath)
      .type('form')
      .send({ formToken: hiddenInputs(page.text).get('formToken'), code: code() });
    const token = hiddenInputs(granted.text).get('accessToken') as string;
    const link = await t.http().post('/self-service/create-enrollment-request').set('Authorization', `Bearer ${token}`);
    const path = new URL(link.body.model.url).pathname;
    await browser.get(path);
    // the next time step: the portal's sign-in spent this one
    t.clock.advance(30_000);
    return path;
  }
  const codesOn = (html: string) => [...html.matchAll(/<li><code>([0-9A-Z-]{14})<\/code><\/li>/g)].map((m) => m[1]);
  const ra = (identity: string, passCode: string) => t.as(vpn).post('/access/requests/ra').send({ identity, passCode, language: 'en' });

  it('asks for a fresh code first; then shows ten codes once, which sign in; new ones void the old; journaled without a code', async () => {
    const browser = t.browser();
    const path = await openPage('rc.user', browser);
    const page = await browser.get(path);
    expect(page.text).toContain('You have no recovery codes.');
    expect(page.text).toContain('Confirm it is you above to create recovery codes.');
    expect(page.text).not.toContain('value="recovery-codes"');
    const early = await browser.post(path).type('form').send({ action: 'recovery-codes' });
    expect(codesOn(early.text)).toEqual([]);
    expect(early.text).toContain('Confirm it is you first.');

    const confirmed = await browser.post(path).type('form').send({ action: 'check', code: code() });
    expect(confirmed.text).toContain('<button type="submit" class="secondary">Create recovery codes</button>');
    const shown = await browser.post(path).type('form').send({ action: 'recovery-codes' });
    const codes = codesOn(shown.text);
    expect(codes).toHaveLength(10);
    expect(shown.text).toContain('they are shown only this once');
    // never again: the list says how many are left, not which
    const back = await browser.post(path).type('form').send({ action: 'list' });
    expect(back.text).toContain('Recovery codes left: 10.');
    expect(codesOn(back.text)).toEqual([]);
    for (const c of codes) expect(back.text).not.toContain(c);

    expect((await ra('rc.user', codes[0])).body.model).toMatchObject({ status: 'Granted', authenticator: 'RecoveryCode' });
    const again = await browser.post(path).type('form').send({ action: 'recovery-codes' });
    const fresh = codesOn(again.text);
    expect(fresh).toHaveLength(10);
    expect((await ra('rc.user', codes[1])).body.model.status).toBe('Denied');
    expect((await ra('rc.user', fresh[0])).body.model.status).toBe('Granted');

    const events = await t.database.dataSource.query(
      `SELECT subject, additional_fields FROM journal_events WHERE account_id = $1 AND object = 'RecoveryCode' AND action = 'Create' ORDER BY seq`,
      [accountId],
    );
    expect(events).toEqual([
      { subject: 'rc.user', additional_fields: expect.objectContaining({ CodeCount: '10', Source: 'self-service' }) },
      { subject: 'rc.user', additional_fields: expect.objectContaining({ CodeCount: '10', Source: 'self-service' }) },
    ]);
    expect(JSON.stringify(events)).not.toContain(codes[0]);
  });

  it('warns when three or fewer are left', async () => {
    const browser = t.browser();
    const path = await openPage('rc.low', browser);
    await browser.post(path).type('form').send({ action: 'check', code: code() });
    const codes = codesOn((await browser.post(path).type('form').send({ action: 'recovery-codes' })).text);
    for (const c of codes.slice(0, 6)) expect((await ra('rc.low', c)).body.model.status).toBe('Granted');
    const four = await browser.post(path).type('form').send({ action: 'list' });
    expect(four.text).toContain('Recovery codes left: 4.');
    expect(four.text).not.toContain('data-testid="recovery-low"');
    expect((await ra('rc.low', codes[6])).body.model.status).toBe('Granted');
    const three = await browser.post(path).type('form').send({ action: 'list' });
    expect(three.text).toContain('Only 3 recovery code(s) left. Create new ones before you run out.');
  });
});
