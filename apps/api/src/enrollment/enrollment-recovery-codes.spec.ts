import { AccountId } from '@twofold/domain';
import { generateTotp, parseBase32Key } from '@twofold/otp';
import { AdministratorsRepository } from '@twofold/persistence';
import { newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { EnrollmentLinksService } from './enrollment-links.service';

/** The enrollment link's last page gives a user ten recovery codes, once, when they have none left. */
describe('enrollment page: recovery codes with the enrollment', () => {
  let t: TestApp;
  let links: EnrollmentLinksService;
  let accountId: AccountId;
  let account: { authorization: string };
  let vpn: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    links = t.app.get(EnrollmentLinksService);
    const created = await t.newAccount();
    accountId = created.account.id;
    account = created;
    vpn = await t.newResource(accountId, 'VPN');
  });
  afterAll(() => t.close());

  const codesOn = (html: string) => [...html.matchAll(/<li><code>([0-9A-Z-]{14})<\/code><\/li>/g)].map((m) => m[1]);

  /** Opens the link and enters the shown app's first code: the last page. */
  async function enroll(target: { userId: string } | { administratorId: string }): Promise<string> {
    const link = await links.issue(accountId, target, { ttlMinutes: 60, email: null });
    const path = new URL(link.url).pathname;
    const page = await t.http().get(path);
    const secret = parseBase32Key(/data-testid="secret">([A-Z2-7]+)<\/code>/.exec(page.text)?.[1] as string);
    const done = await t
      .http()
      .post(path)
      .type('form')
      .send({ code: generateTotp({ secret, time: t.clock.now().getTime() }) });
    expect(done.status).toBe(200);
    return done.text;
  }

  it('a user without recovery codes gets ten under the confirmation; they sign in; journaled as the enrollment made them', async () => {
    const user = await newUser(t.db, accountId, 'enrolls.first', { now: t.clock.now() });
    const done = await enroll({ userId: user.id });
    expect(done).toContain('Your recovery codes');
    expect(done).toContain('they are shown only this once');
    const codes = codesOn(done);
    expect(codes).toHaveLength(10);
    const signIn = await t.as(vpn).post('/access/requests/ra').send({ identity: 'enrolls.first', passCode: codes[0], language: 'en' });
    expect(signIn.body.model).toMatchObject({ status: 'Granted', authenticator: 'RecoveryCode' });
    const [event] = await t.database.dataSource.query(
      `SELECT subject, additional_fields FROM journal_events WHERE object = 'RecoveryCode' AND action = 'Create' AND additional_fields->>'UserId' = $1`,
      [user.id],
    );
    expect(event).toEqual({
      subject: 'enrolls.first',
      additional_fields: expect.objectContaining({ Source: 'enrollment', CodeCount: '10' }),
    });
  });

  it('a user who kept unspent recovery codes keeps them: the enrollment makes none', async () => {
    const user = await newUser(t.db, accountId, 'enrolls.again', { now: t.clock.now() });
    const kept = (await t.as(account).post(`/users/${user.id}/recovery-codes`).send()).body.model.codes as string[];
    const done = await enroll({ userId: user.id });
    expect(codesOn(done)).toEqual([]);
    expect(done).not.toContain('Your recovery codes');
    const signIn = await t.as(vpn).post('/access/requests/ra').send({ identity: 'enrolls.again', passCode: kept[0], language: 'en' });
    expect(signIn.body.model.status).toBe('Granted');
  });

  it("an administrator's enrollment link makes no recovery codes (the console has its own sign-in)", async () => {
    const admin = await new AdministratorsRepository(t.db).insert(accountId, {
      identity: 'admin.rc@example.test',
      name: 'Ann',
      role: 'Admin',
      status: 'Pending',
      registrationDate: t.clock.now(),
      lastLoginDate: null,
    });
    expect(codesOn(await enroll({ administratorId: admin.id }))).toEqual([]);
  });
});
