import { generateTotp, parseBase32Key } from '@twofold/otp';
import { startTestApp, TestApp, TEST_NOW } from '../testing/test-app';

/** Access requests: the history item's fields, creation with the resource's key and secret, the access page's outcome. */
describe('access requests API compliance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creating, polling and ra need only the resource key: they work while the extended API is disabled; the history does not', async () => {
    const account = await t.newAccount({ apiEnabled: false });
    const resource = await t.newResource(account.account.id, 'Portal');
    const created = await t.as(resource).post('/access/requests').send({ identity: 'offline' });
    expect(created.status).toBe(200);
    expect(created.body.model.status).toBe('AwaitingAuthentication');
    expect((await t.as(resource).get(`/access/requests/${created.body.model.id}`)).status).toBe(200);
    const ra = await t.as(resource).post('/access/requests/ra').send({ identity: 'offline', passCode: '123456' });
    expect(ra.status).toBe(200);
    expect(ra.body.model.status).toBe('Denied');

    const history = await t.as(account).get('/access/requests?createdAt=2026-05-19');
    expect(history.status).toBe(403);
    expect(history.body).toEqual({
      model: null,
      success: false,
      message: 'The extended API is disabled for this account.',
      traceId: expect.any(String),
    });
    expect((await t.as(account).get('/users')).status).toBe(403);
  });

  it('a request granted on the access page shows every history field over HTTP; the user shows lastLogin, isEnrolled and the Totp kind', async () => {
    const account = await t.newAccount();
    const resource = await t.newResource(account.account.id, 'Intranet');
    t.clock.set(new Date('2026-05-19T12:00:00.000Z'));
    try {
      const created = await t.as(resource).post('/access/requests').send({ Identity: 'page.user', Language: 'en' });
      const path = new URL(created.body.model.url).pathname;
      // one browser loads the page and posts its form: it sends back the cookie the page set
      const browser = t.browser();
      const page = await browser.get(path);
      expect(page.status).toBe(200);
      const secret = parseBase32Key(/data-testid="secret">([A-Z2-7]+)<\/code>/.exec(page.text)?.[1] as string);
      const formToken = /<input type="hidden" name="formToken" value="([^"]+)">/.exec(page.text)?.[1] as string;
      t.clock.advance(30_000);
      const code = generateTotp({ secret, time: t.clock.now().getTime() });
      const granted = await browser.post(path).type('form').send({ code, formToken });
      expect(granted.status).toBe(200);
      expect(granted.text).toContain('Access granted');
    } finally {
      t.clock.set(TEST_NOW);
    }

    const history = await t.as(account).get('/access/requests?createdAt=2026-05-19');
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ success: true, message: null, model: { offset: 0, limit: 100, totalElements: 1 } });
    const [item] = history.body.model.data;
    expect(item).toEqual({
      id: expect.any(String),
      identity: 'page.user',
      status: 'Granted',
      resourceName: 'Intranet',
      createdAt: '2026-05-19T12:00:00.000Z',
      grantedAt: '2026-05-19T12:00:30.000Z',
      authenticator: 'Totp',
      countryCode: null,
      region: null,
      city: null,
      remoteHost: expect.stringMatching(/127\.0\.0\.1|::1/),
      ip: expect.stringMatching(/127\.0\.0\.1|::1/),
      twoFADeviceIp: expect.stringMatching(/127\.0\.0\.1|::1/),
      bypassed: false,
      channel: 'page',
    });
    expect(item.remoteHost).toBe(item.ip);

    const users = await t.as(account).get('/users?identity=page.user');
    expect(users.body.model).toEqual([
      expect.objectContaining({
        identity: 'page.user',
        lastLogin: '2026-05-19T12:00:30.000Z',
        isEnrolled: true,
        authenticators: ['Totp'],
        createdAt: '2026-05-19T12:00:00.000Z',
      }),
    ]);
  });
});
