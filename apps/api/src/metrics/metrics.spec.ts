import { randomUUID } from 'node:crypto';
import { generateTotp } from '@twofold/otp';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/** GET /metrics in the Prometheus text format, labelled by route pattern. */
describe('GET /metrics', () => {
  let t: TestApp;
  let auth: string;
  let resourceAuth: string;
  const KEY_HEX = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
  const key = Buffer.from(KEY_HEX, 'hex');

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    auth = account.authorization;
    resourceAuth = (await t.newResource(account.account.id)).authorization;
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text;
  };
  /** The value of one series, 0 when it is absent. */
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };

  it('counts requests and their latency by route pattern and status, never by raw URL', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) expect((await t.as(resourceAuth).get(`/access/requests/${id}`)).status).toBe(404);
    const byIdentity = await t.as(auth).get('/users?identity=nobody');
    for (const id of ids) expect((await t.http().get(`/no/such/path/${id}`)).status).toBe(404);

    const text = await scrape();
    expect(value(text, 'twofold_http_requests_total{method="GET",route="/access/requests/:id",status="404"}')).toBe(3);
    expect(value(text, 'twofold_http_request_duration_seconds_count{method="GET",route="/access/requests/:id"}')).toBe(3);
    expect(value(text, 'twofold_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/access/requests/:id"}')).toBe(3);
    expect(value(text, `twofold_http_requests_total{method="GET",route="/users",status="${byIdentity.status}"}`)).toBe(1);
    expect(value(text, 'twofold_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(3);
    for (const id of ids) expect(text).not.toContain(id);
    expect(text).not.toContain('nobody');
    expect(text).not.toContain('/no/such');
  });

  it('counts codes by result, requests created by status, and lockouts; nothing secret is in the text', async () => {
    const identity = 'metrics.user@example.com';
    const userId = (await t.as(auth).post('/users').send({ Identity: identity })).body.model.id;
    const token = await t.as(auth).post(`/users/${userId}/authenticators/totptoken`).send({ Name: 'T', Key: KEY_HEX });
    expect(token.status).toBe(200);
    const ra = async (passCode: string) =>
      // from one address the client names: five wrong codes lock that address (for this resource)
      (await t.as(resourceAuth).post('/access/requests/ra').send({ identity, passCode, ip: '192.0.2.50' })).body.model.status;
    const code = generateTotp({ secret: key, time: t.clock.now().getTime() });
    const wrong = code === '000000' ? '111111' : '000000';
    const before = await scrape();

    expect(await ra(code)).toBe('Granted');
    expect(await ra(code)).toBe('Denied');
    expect(await ra(wrong)).toBe('Denied');
    const created = await t
      .as(resourceAuth)
      .post('/access/requests')
      .send({ identity, callback: { action: 'https://app.example/cb', target: '_self' } });
    expect(created.body.success).toBe(true);

    const after = await scrape();
    const moved = (series: string) => value(after, series) - value(before, series);
    expect(moved('twofold_otp_verifications_total{channel="ra",result="granted"}')).toBe(1);
    expect(moved('twofold_otp_verifications_total{channel="ra",result="replayed"}')).toBe(1);
    expect(moved('twofold_otp_verifications_total{channel="ra",result="wrong"}')).toBe(1);
    expect(moved('twofold_access_requests_created_total{channel="ra",status="Granted"}')).toBe(1);
    expect(moved('twofold_access_requests_created_total{channel="ra",status="Denied"}')).toBe(2);
    expect(moved('twofold_access_requests_created_total{channel="page",status="AwaitingAuthentication"}')).toBe(1);

    // wrong codes until the address is locked out (the one above and four more): the next is not even checked
    for (let i = 0; i < 4; i++) await ra(wrong);
    expect(value(await scrape(), 'twofold_code_lockouts_total{channel="ra",scope="address"}')).toBe(1);
    await ra(wrong);
    expect(value(await scrape(), 'twofold_otp_verifications_total{channel="ra",result="locked"}')).toBe(1);

    const text = await scrape();
    const [key64, secret] = Buffer.from(resourceAuth.replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':');
    for (const secretText of [identity, KEY_HEX, key.toString('base64'), key64, secret, userId, auth, resourceAuth])
      expect({ secretText, found: text.includes(secretText) }).toEqual({ secretText, found: false });
    // codes are digits, as sample values are: looked for in the labels only
    const labels = text.match(/\{[^}]*\}/g)?.join('\n') ?? '';
    for (const secretText of [code, wrong])
      expect({ secretText, found: labels.includes(secretText) }).toEqual({ secretText, found: false });
  });

  it('reports the database pool and the event loop', async () => {
    const text = await scrape();
    for (const name of [
      'twofold_db_pool_connections_in_use',
      'twofold_db_pool_connections_idle',
      'twofold_db_pool_waiting_clients',
      'nodejs_eventloop_lag_seconds',
      'process_cpu_seconds_total',
    ])
      expect(text).toMatch(new RegExp(`^${name} \\d`, 'm'));
  });

  it('answers 404 to a client outside METRICS_ALLOW, as to an unknown path', async () => {
    const outside = await startTestApp({ metrics: { enabled: true, allow: ['10.0.0.0/8'] } });
    const off = await startTestApp({ metrics: { enabled: false, allow: ['127.0.0.0/8', '::1'] } });
    try {
      expect((await outside.http().get('/metrics')).status).toBe(404);
      expect((await off.http().get('/metrics')).status).toBe(404);
    } finally {
      await outside.close();
      await off.close();
    }
  });
});
