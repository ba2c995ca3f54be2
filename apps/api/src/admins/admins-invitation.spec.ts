import { outboxMails } from '../../test/testing/outbox';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';

describe('administrator invitations', () => {
  let t: TestApp;
  let authorization: string;

  beforeAll(async () => {
    t = await startTestApp();
    authorization = (await t.newAccount()).authorization;
  });
  afterAll(() => t.close());

  const mails = () => outboxMails(t);
  const linkIn = (eml: string) => {
    const match = /http:\/\/twofold\.test\/access\/enroll\/[A-Za-z0-9_-]{43}/.exec(eml);
    if (!match) throw new Error('no link in the mail');
    return new URL(match[0]).pathname;
  };
  const register = (email: string) => t.as(authorization).post('/admins').send({ email, name: 'Ivy', role: 'Support 1' });

  it('mails a registered administrator a link to their own second-factor setup', async () => {
    const res = await register('ivy@example.test');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('Pending');
    const [mail] = mails();
    expect(mail).toContain('To: ivy@example.test');
    const page = await t.http().get(linkIn(mail));
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="code"');
  });

  it('re-sends a new link (V1 and V2) and the older one stops working; journaled as EnrollmentLink Send without the token', async () => {
    const { id } = (await register('jay@example.test')).body;
    const first = linkIn(mails().at(-1) as string);
    const v1 = await t.as(authorization).post(`/v1/admins/resend-invitation-email?id=${id}`);
    expect(v1.status).toBe(200);
    const second = linkIn(mails().at(-1) as string);
    expect(second).not.toBe(first);
    expect((await t.http().get(first)).status).toBe(410);
    expect((await t.http().get(second)).status).toBe(200);

    const v2 = await t.as(authorization).post(`/v2/admins/resend-invitation-email/${id}`);
    expect(v2.status).toBe(200);
    expect((await t.http().get(second)).status).toBe(410);

    t.clock.set(new Date(TEST_NOW.getTime() + 24 * 3600 * 1000));
    const journal = await t.as(authorization).get('/journal?eventDate=2026-05-20&object=EnrollmentLink');
    t.clock.set(TEST_NOW);
    const events = journal.body.model.data;
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ action: 'Send', success: true });
    expect(events[0].additionalFields).toEqual({
      EmployeeId: id,
      EmployeeIdentity: 'jay@example.test',
      EnrollmentLink: expect.stringMatching(/^http:\/\/twofold\.test\/access\/enroll\/[A-Za-z0-9_-]{6}…$/),
      EnrollmentLinkEmail: 'jay@example.test',
      EnrollmentLinkTTL: '10080',
    });
    expect(JSON.stringify(journal.body)).not.toContain(second.split('/').pop());
  });

  it('refuses to re-send for an administrator who is not Pending, and sends nothing', async () => {
    const { id } = (await register('kim@example.test')).body;
    const before = mails().length;
    await t.database.dataSource.query(`UPDATE administrators SET status = 'Active', activated_at = now() WHERE id = $1`, [id]);
    const res = await t.as(authorization).post(`/admins/resend-invitation-email?id=${id}`);
    expect(res.status).toBe(400);
    expect(mails().length).toBe(before);
  });
});

describe('administrator invitations when mail cannot be sent', () => {
  let t: TestApp;
  beforeAll(async () => {
    // nothing listens on port 1
    t = await startTestApp({ smtpUrl: 'smtp://127.0.0.1:1' });
  });
  afterAll(() => t.close());

  it('answers 503 and registers nobody: the administrator and the link roll back together', async () => {
    const { authorization } = await t.newAccount();
    const res = await t.as(authorization).post('/admins').send({ email: 'lee@example.test', role: 'Admin' });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: 'The e-mail could not be sent. Try again later.', traceId: expect.any(String) });
    const rows = await t.database.dataSource.query(`SELECT count(*)::int AS n FROM administrators WHERE identity = 'lee@example.test'`);
    expect(rows[0].n).toBe(0);
    expect((await t.database.dataSource.query('SELECT count(*)::int AS n FROM enrollment_tokens'))[0].n).toBe(0);
  });
});
