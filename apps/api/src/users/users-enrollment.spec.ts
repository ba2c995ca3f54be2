import { createServer, Server } from 'node:net';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { outboxMails } from '../../test/testing/outbox';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';

const LINK = /http:\/\/twofold\.test\/access\/enroll\/[A-Za-z0-9_-]{43}/;

describe('enrollment links of users', () => {
  let t: TestApp;
  let authorization: string;

  beforeAll(async () => {
    t = await startTestApp();
    authorization = (await t.newAccount()).authorization;
  });
  afterAll(() => t.close());

  const mails = () => outboxMails(t);
  const path = (url: string) => new URL(url).pathname;

  it('POST /users with EnrollmentLink and no To returns the link; it opens the enrollment page', async () => {
    const res = await t
      .as(authorization)
      .post('/users')
      .send({ Identity: 'link.user', EnrollmentLink: { Ttl: 60 } });
    expect(res.status).toBe(200);
    expect(res.body.model.enrollmentLink).toEqual({
      url: expect.stringMatching(LINK),
      expiresAt: new Date(TEST_NOW.getTime() + 60 * 60_000).toISOString(),
    });
    const page = await t.http().get(path(res.body.model.enrollmentLink.url));
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="code"');
  });

  it('POST /users with EnrollmentLink {To: "email"} mails the link to the user and does not return it', async () => {
    const before = mails().length;
    const res = await t
      .as(authorization)
      .post('/users')
      .send({ identity: 'mailed.user', email: 'mailed@example.test', enrollmentLink: { to: 'email', ttl: 30 } });
    expect(res.status).toBe(200);
    expect(res.body.model.enrollmentLink).toEqual({ expiresAt: new Date(TEST_NOW.getTime() + 30 * 60_000).toISOString() });
    const mail = mails().slice(before);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toContain('To: mailed@example.test');
    expect(mail[0]).toMatch(LINK);
  });

  it('refuses To "email" without an Email, an unknown To and a bad Ttl; no user is left behind', async () => {
    for (const EnrollmentLink of [{ To: 'email' }, { To: 'sms' }, { Ttl: 0 }, { Ttl: 'soon' }, { Ttl: 43201 }, 'yes']) {
      const res = await t.as(authorization).post('/users').send({ Identity: 'no.user', EnrollmentLink });
      expect(res.status).toBe(400);
    }
    expect((await t.as(authorization).get('/users?identity=no.user')).body.model).toEqual([]);
  });

  it('POST /users/{id}/enroll without Email returns {url, expiresAt} and sends nothing', async () => {
    const id = (await t.as(authorization).post('/users').send({ Identity: 'enroll.me', Email: 'enroll.me@example.test' })).body.model.id;
    const before = mails().length;
    const res = await t.as(authorization).post(`/users/${id}/enroll`).send({ Ttl: 15 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      model: { url: expect.stringMatching(LINK), expiresAt: new Date(TEST_NOW.getTime() + 15 * 60_000).toISOString() },
      success: true,
      message: 'Enrollment link created.',
    });
    expect(mails()).toHaveLength(before);

    const mailed = await t.as(authorization).post(`/users/${id}/enroll`).send({ email: 'other@example.test', ttl: 15 });
    expect(mailed.body).toEqual({ model: { expiresAt: expect.any(String) }, success: true, message: 'Enrollment link sent.' });
    expect(mails().at(-1)).toContain('To: other@example.test');
    // a new link replaces the older one
    expect((await t.http().get(path(res.body.model.url))).status).toBe(410);
  });

  it('the link expires after Ttl minutes', async () => {
    const id = (await t.as(authorization).post('/users').send({ Identity: 'expiring' })).body.model.id;
    const { url } = (await t.as(authorization).post(`/users/${id}/enroll`).send({ Ttl: 5 })).body.model;
    t.clock.set(new Date(TEST_NOW.getTime() + 5 * 60_000));
    try {
      expect((await t.http().get(path(url))).status).toBe(410);
    } finally {
      t.clock.set(TEST_NOW);
    }
  });

  it('refuses a bad Email or Ttl, and an unknown user', async () => {
    const id = (await t.as(authorization).post('/users').send({ Identity: 'enroll.bad' })).body.model.id;
    expect((await t.as(authorization).post(`/users/${id}/enroll`).send({ Email: 'x' })).status).toBe(400);
    expect((await t.as(authorization).post(`/users/${id}/enroll`).send({ Ttl: -1 })).status).toBe(400);
    expect((await t.as(authorization).post('/users/00000000-0000-4000-8000-000000000000/enroll').send({})).status).toBe(404);
  });

  it('journals EnrollmentLink Send with EnrollmentLink (token cut short), EnrollmentLinkEmail and EnrollmentLinkTTL', async () => {
    const events = (await journalOfToday(t, authorization, 'object=EnrollmentLink')).filter((e) => e.success);
    const mailed = events.find((e) => e.additionalFields['UserIdentity'] === 'mailed.user');
    expect(mailed?.additionalFields).toMatchObject({
      EnrollmentLink: expect.stringMatching(/^http:\/\/twofold\.test\/access\/enroll\/[A-Za-z0-9_-]{6}…$/),
      EnrollmentLinkEmail: 'mailed@example.test',
      EnrollmentLinkTTL: '30',
    });
    const returned = events.filter((e) => e.additionalFields['UserIdentity'] === 'enroll.me');
    expect(returned.map((e) => [e.additionalFields['EnrollmentLinkEmail'], e.additionalFields['EnrollmentLinkTTL']])).toEqual([
      [undefined, '15'],
      ['other@example.test', '15'],
    ]);
    expect(events.some((e) => e.additionalFields['UserIdentity'] === 'link.user')).toBe(true);
  });
});

describe('enrollment link mail that cannot be sent', () => {
  let t: TestApp;
  let closedPort: number;

  beforeAll(async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closedPort = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    t = await startTestApp({ smtpUrl: `smtp://127.0.0.1:${closedPort}` });
  });
  afterAll(() => t.close());

  it('answers 503 and keeps nothing: no user, no link', async () => {
    const { authorization } = await t.newAccount();
    const res = await t
      .as(authorization)
      .post('/users')
      .send({ Identity: 'unlucky', Email: 'u@example.test', EnrollmentLink: { To: 'email' } });
    expect(res.status).toBe(503);
    expect((await t.as(authorization).get('/users?identity=unlucky')).body.model).toEqual([]);
  });
});
