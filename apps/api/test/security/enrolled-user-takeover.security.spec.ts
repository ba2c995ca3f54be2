import { generateTotp, parseBase32Key } from '@twofold/otp';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Attacker: holds a victim's access-page URL (the victim's first factor is known to them). The victim
 * already has a second factor: an SMS phone set by the administrator (`isEnrolled: true`), which the
 * page checks by sending a code to that phone. The access page offers the enrollment of an
 * authenticator app only to a user *without* a second factor: the page must not let the URL's holder
 * enroll their own app and sign in.
 */
describe('security: the access page does not enroll a new app over an existing second factor', () => {
  let t: TestApp;
  let accountAuth: string;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountAuth = account.authorization;
    resource = await t.newResource(account.account.id, 'Intranet');
  });
  afterAll(() => t.close());

  it('asks a user whose only second factor is an SMS phone for a code sent to that phone, never for a new app', async () => {
    const created = await t.as(accountAuth).post('/users').send({ Identity: 'sms-only', Phone: '+14155550100' });
    expect(created.body.model).toMatchObject({ isEnrolled: true });

    const res = await t.as(resource).post('/access/requests').send({ identity: 'sms-only', language: 'en' });
    const path = new URL(res.body.model.url).pathname;
    const page = await t.http().get(path);
    expect(page.text).not.toContain('data-testid="secret"');
    expect(page.text).not.toContain('otpauth://');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<button type="submit" class="secondary" name="[a-z]+" value="sms">/);
    const polled = await t.as(resource).get(`/access/requests/${res.body.model.id}`);
    expect(polled.body.model.status).toBe('AwaitingAuthentication');
    const authenticators = await t.as(accountAuth).get(`/users/${created.body.model.id}/authenticators`);
    expect(Object.keys(authenticators.body.model)).toEqual(['Sms']);
  });

  it('refuses the code of a secret shown before the administrator gave the user a phone', async () => {
    const res = await t.as(resource).post('/access/requests').send({ identity: 'late-phone', language: 'en' });
    const path = new URL(res.body.model.url).pathname;
    // one browser loads the page and posts its form: the refusal below is not the forged-form one
    const browser = t.browser();
    const page = await browser.get(path);
    const secret = parseBase32Key(/data-testid="secret">([A-Z2-7]+)</.exec(page.text)?.[1] as string);
    const formToken = /name="formToken" value="([^"]+)"/.exec(page.text)?.[1] as string;
    const [user] = await t.database.dataSource.query(`SELECT id FROM users WHERE identity = 'late-phone'`);
    const phone = await t.as(accountAuth).post(`/v2/users/${user.id}/phone`).send({ PhoneNumber: '+14155550101' });
    expect(phone.body.success).toBe(true);

    const submitted = await browser
      .post(path)
      .type('form')
      .send({ code: generateTotp({ secret, time: t.clock.now().getTime() }), formToken });
    // the user has a phone now: the code of the secret shown before enrolls nothing and grants nothing
    expect(submitted.text).not.toMatch(/accessToken/i);
    expect(submitted.text).not.toContain('data-testid="secret"');
    const authenticators = await t.as(accountAuth).get(`/users/${user.id}/authenticators`);
    expect(Object.keys(authenticators.body.model)).toEqual(['Sms']);
  });

  it('still enrolls an app for a user without any second factor', async () => {
    const res = await t.as(resource).post('/access/requests').send({ identity: 'newcomer', language: 'en' });
    const page = await t.http().get(new URL(res.body.model.url).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="secret"');
  });
});
