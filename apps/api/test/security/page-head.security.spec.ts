import { startTestApp, TestApp } from '../testing/test-app';

/**
 * HEAD changes nothing. Link checkers and link previews send HEAD to the links users get; answered by
 * running a page's GET, it registered the user, recorded the visit, or granted a request whose visitor
 * is on a Bypass list (no token delivered), and the user's own visit then found the request used.
 */
describe('HEAD on the pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ trustedProxies: ['127.0.0.1', '::1'] });
  });
  afterAll(() => t.close());

  it('a bypassed access request stays unspent: HEAD answers 200 without a body, the GET that follows grants', async () => {
    const { account, authorization } = await t.newAccount();
    const vpn = await t.newResource(account.id, 'VPN');
    const list = await t
      .as(authorization)
      .post('/ip-lists')
      .send({ name: 'Office', action: 'Bypass', ranges: ['198.51.100.0/24'], resources: [] });
    expect(list.status).toBe(201);
    const created = await t
      .as(vpn)
      .post('/access/requests')
      .send({ identity: 'hal', language: 'en', callback: { action: 'https://app.example/cb', target: '_self' } });
    const { id, url } = created.body.model as { id: string; url: string };
    const path = new URL(url).pathname;
    const poll = async () => (await t.as(vpn).get(`/access/requests/${id}`)).body.model;

    for (let round = 0; round < 3; round += 1) {
      const head = await t.http().head(path).set('X-Forwarded-For', '198.51.100.20');
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toMatch(/^text\/html/);
      expect(head.headers['x-frame-options']).toBe('DENY');
      expect(head.headers['set-cookie']).toBeUndefined();
      expect(head.text ?? '').toBe('');
    }
    expect(await poll()).toMatchObject({ status: 'AwaitingAuthentication', ip: null });
    // nobody was registered by the HEADs
    expect((await t.as(authorization).get('/users?identity=hal')).body.model).toEqual([]);

    const page = await t.browser().get(path).set('X-Forwarded-For', '198.51.100.20');
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="accessToken"');
    expect(await poll()).toMatchObject({ status: 'Granted', bypassed: true });
  });

  it('/favicon.ico is the logo, cached for a day (browsers ask for it on every page visit)', async () => {
    const res = await t.http().get('/favicon.ico').buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const icon = res.body as Buffer;
    // an ICO header (reserved 0, type 1) with three images, each a PNG
    expect([icon.readUInt16LE(0), icon.readUInt16LE(2), icon.readUInt16LE(4)]).toEqual([0, 1, 3]);
    const firstImage = icon.readUInt32LE(6 + 12);
    expect(icon.subarray(firstImage, firstImage + 4).toString('latin1')).toBe('\x89PNG');
  });

  it('an enrollment link is not spent, nor its key made, by HEAD', async () => {
    const { authorization } = await t.newAccount();
    const user = await t
      .as(authorization)
      .post('/users')
      .send({ Identity: 'ivy', EnrollmentLink: { Ttl: 60 } });
    const path = new URL(user.body.model.enrollmentLink.url).pathname;
    const head = await t.http().head(path);
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    const [row] = await t.database.dataSource.query(`SELECT pending_secret_enc FROM enrollment_tokens ORDER BY created_at DESC LIMIT 1`);
    expect(row.pending_secret_enc).toBeNull();
    const page = await t.http().get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="secret"');
  });
});
