import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Attacker: someone who reads the API's logs (a log pipeline, a support engineer). The enrollment
 * token in `$ACCESS_URL/enroll/<token>` is a credential (whoever holds it sets up the second factor
 * of the user, or activates the invited administrator): the request log line must not carry it, as
 * the journal does not (docs/decisions/administrators.md: "the journal keeps only its first 6 characters").
 */
describe('security: credentials in the request log', () => {
  let t: TestApp;
  let auth: string;
  let written: string[] = [];

  beforeAll(async () => {
    // the request log lines, as the process would write them to stdout
    t = await startTestApp({ logLevel: 'info' }, { logDestination: { write: (line: string) => void written.push(line) } });
    auth = (await t.newAccount()).authorization;
  });
  beforeEach(() => {
    written = [];
  });
  afterAll(() => t.close());

  it('logs the access page and the poll without the request id (the page shows the pending secret to whoever has it)', async () => {
    const resource = await t.newResource((await t.newAccount({ name: 'Logs' })).account.id, 'App');
    const created = await t.as(resource).post('/access/requests').send({ identity: 'unenrolled' });
    const id = created.body.model.id as string;
    written = [];
    expect((await t.http().get(`/access/${id}`)).text).toContain('data-testid="secret"');
    expect((await t.http().post(`/access/${id}`).type('form').send({ code: '000000' })).status).toBe(403);
    expect((await t.as(resource).get(`/access/requests/${id}`)).status).toBe(200);
    const lines = written.join('');
    expect(lines).toContain(`/access/${id.slice(0, 8)}`);
    expect(lines).toContain(`/access/requests/${id.slice(0, 8)}`);
    expect(lines).not.toContain(id);
  });

  it('logs the enrollment page without its token', async () => {
    const created = await t.as(auth).post('/users').send({ Identity: 'logged', EnrollmentLink: {} });
    const url = new URL(created.body.model.enrollmentLink.url);
    const token = url.pathname.split('/').pop() as string;
    expect(token).toHaveLength(43);

    written = [];
    expect((await t.http().get(url.pathname)).status).toBe(200);
    expect((await t.http().post(url.pathname).type('form').send({ code: '000000' })).status).toBeLessThan(500);
    const lines = written.join('');
    expect(lines).toContain('/access/enroll/');
    expect(lines).not.toContain(token);
  });
});
