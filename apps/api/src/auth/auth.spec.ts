import { basicAuthorization } from '@twofold/persistence/testing';
import { BasicStrategy } from 'passport-http';
import request from 'supertest';
import { createApp, initApp } from '../app/create-app';
import { APP_CONFIG } from '../config/injection-tokens';
import { AppConfig } from '../config/app-config';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { AUTH_FAILURES_ALLOWED_PER_WINDOW } from './auth-throttle';

describe('Basic authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('accepts the account API key and secret', async () => {
    const account = await t.newAccount();
    const res = await t.http().get('/groups').set('Authorization', account.authorization);
    expect(res.status).toBe(200);
    expect(res.body.model.data.map((g: { name: string }) => g.name)).toEqual(['AllUsers']);
  });

  it('answers 401 with a Basic challenge and the enveloped body when credentials are missing', async () => {
    const res = await t.http().get('/groups').set('X-Forwarded-For', '10.0.0.1');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="api"');
    expect(res.body).toEqual({ model: null, success: false, message: 'Authentication required.', traceId: expect.any(String) });
  });

  it('answers 401 for the right pair followed by a colon and more: the secret is everything after the first colon', async () => {
    const account = await t.newAccount();
    const resource = await t.newResource(account.account.id);
    for (const suffix of [':anything', ':', `:${account.apiSecret}`]) {
      const res = await t
        .http()
        .get('/groups')
        .set('Authorization', basicAuthorization(account.apiKey, account.apiSecret + suffix));
      expect(res.status).toBe(401);
    }
    const ra = await t
      .http()
      .post('/access/requests/ra')
      .set('Authorization', basicAuthorization(resource.apiKey, `${resource.apiSecret}:x`))
      .send({ identity: 'jane', passCode: '123456' });
    expect(ra.status).toBe(401);
    expect((await t.http().get('/groups').set('Authorization', account.authorization)).status).toBe(200);
  });

  it("reads the header once, itself: passport-http's reading (the deprecated new Buffer, a stack walk per call) never runs", async () => {
    const account = await t.newAccount();
    const resource = await t.newResource(account.account.id);
    const passportHttpReading = jest.spyOn(BasicStrategy.prototype, 'authenticate');
    try {
      expect((await t.http().get('/groups').set('Authorization', account.authorization)).status).toBe(200);
      expect((await t.http().get('/groups').set('Authorization', basicAuthorization(account.apiKey, 'wrong'))).status).toBe(401);
      const created = await t.http().post('/access/requests').set('Authorization', resource.authorization).send({ identity: 'jane' });
      expect(created.status).toBe(200);
      expect(passportHttpReading).not.toHaveBeenCalled();
    } finally {
      passportHttpReading.mockRestore();
    }
  });

  it('answers 401 for a wrong secret, an unknown key and a malformed header', async () => {
    const account = await t.newAccount();
    for (const authorization of [
      basicAuthorization(account.apiKey, account.apiSecret + 'x'),
      basicAuthorization('0'.repeat(32), account.apiSecret),
      basicAuthorization(account.apiKey, ''),
      'Basic !!!not-base64',
      'Bearer abc',
    ]) {
      const res = await t.http().get('/journal').set('Authorization', authorization);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="api"');
    }
  });

  it('answers 403 when the account API is disabled, with right credentials only', async () => {
    const account = await t.newAccount({ apiEnabled: false });
    const right = await t.http().get('/groups').set('Authorization', account.authorization);
    expect(right.status).toBe(403);
    expect(right.body.message).toBe('The extended API is disabled for this account.');
    const wrong = await t.http().get('/groups').set('Authorization', basicAuthorization(account.apiKey, 'nope'));
    expect(wrong.status).toBe(401);
  });

  it('refuses a resource key on account endpoints', async () => {
    const account = await t.newAccount();
    const resource = await t.newResource(account.account.id);
    const res = await t.http().get('/groups').set('Authorization', resource.authorization);
    expect(res.status).toBe(401);
  });

  it('answers 200 on /ping without credentials', async () => {
    const res = await t.http().get('/ping');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });
});

describe('throttling of failed authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('refuses the 21st failed attempt within a minute with 429 and Retry-After, right credentials too, then recovers', async () => {
    const account = await t.newAccount();
    const wrong = basicAuthorization(account.apiKey, 'wrong');
    for (let i = 0; i < AUTH_FAILURES_ALLOWED_PER_WINDOW; i += 1) {
      // successful calls in between neither count nor reset
      if (i === 10) expect((await t.http().get('/groups').set('Authorization', account.authorization)).status).toBe(200);
      expect((await t.http().get('/groups').set('Authorization', wrong)).status).toBe(401);
    }
    t.clock.advance(20_000);
    const throttled = await t.http().get('/groups').set('Authorization', wrong);
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBe('40');
    const rightButThrottled = await t.http().get('/groups').set('Authorization', account.authorization);
    expect(rightButThrottled.status).toBe(429);

    t.clock.advance(40_000);
    expect((await t.http().get('/groups').set('Authorization', account.authorization)).status).toBe(200);
    expect((await t.http().get('/groups').set('Authorization', wrong)).status).toBe(401);
  });

  it('answers a right call after the 20th failure with 200: only the 21st failure starts the block', async () => {
    const account = await t.newAccount();
    const wrong = basicAuthorization(account.apiKey, 'wrong');
    const from = (authorization: string) => t.http().get('/groups').set('X-Forwarded-For', '').set('Authorization', authorization);
    t.clock.advance(120_000);
    for (let i = 0; i < AUTH_FAILURES_ALLOWED_PER_WINDOW; i += 1) expect((await from(wrong)).status).toBe(401);
    expect((await from(account.authorization)).status).toBe(200);
    expect((await from(wrong)).status).toBe(429);
    expect((await from(account.authorization)).status).toBe(429);
    t.clock.advance(60_000);
  });

  it('enforces one limit across two API instances on one database', async () => {
    // a second process would read the same configuration: same database, same encryption key
    const second = await createApp({ config: t.app.get<AppConfig>(APP_CONFIG), dataSource: t.database.dataSource, clock: t.clock });
    await initApp(second);
    try {
      const account = await t.newAccount();
      const wrong = basicAuthorization(account.apiKey, 'wrong');
      const instances = [t.app.getHttpServer(), second.getHttpServer()];
      for (let i = 0; i < AUTH_FAILURES_ALLOWED_PER_WINDOW; i += 1) {
        expect(
          (
            await request(instances[i % 2])
              .get('/groups')
              .set('Authorization', wrong)
          ).status,
        ).toBe(401);
      }
      expect((await request(instances[0]).get('/groups').set('Authorization', wrong)).status).toBe(429);
      expect((await request(instances[1]).get('/groups').set('Authorization', wrong)).status).toBe(429);
      expect((await request(instances[1]).get('/groups').set('Authorization', account.authorization)).status).toBe(429);
    } finally {
      await second.close();
      t.clock.advance(60_000);
    }
  });
});

describe('throttling behind a trusted reverse proxy (TRUSTED_PROXIES)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // supertest connects from the loopback address: here it plays the proxy
    t = await startTestApp({ trustedProxies: ['127.0.0.1', '::1'] });
  });
  afterAll(() => t.close());

  it('counts failures per forwarded client, so one attacker does not lock out everyone behind the proxy', async () => {
    const account = await t.newAccount();
    const wrong = basicAuthorization(account.apiKey, 'wrong');
    const from = (client: string, authorization: string) =>
      t.http().get('/groups').set('X-Forwarded-For', client).set('Authorization', authorization);
    for (let i = 0; i < AUTH_FAILURES_ALLOWED_PER_WINDOW; i += 1) expect((await from('203.0.113.7', wrong)).status).toBe(401);
    expect((await from('203.0.113.7', wrong)).status).toBe(429);
    expect((await from('198.51.100.20', account.authorization)).status).toBe(200);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const other = await startTestApp({ trustedProxies: ['10.9.9.9'] });
    try {
      const account = await other.newAccount();
      const wrong = basicAuthorization(account.apiKey, 'wrong');
      for (let i = 0; i < AUTH_FAILURES_ALLOWED_PER_WINDOW; i += 1) {
        // a client rotating the header still counts as its own address
        expect((await other.http().get('/groups').set('X-Forwarded-For', `192.0.2.${i}`).set('Authorization', wrong)).status).toBe(401);
      }
      expect((await other.http().get('/groups').set('X-Forwarded-For', '192.0.2.200').set('Authorization', wrong)).status).toBe(429);
    } finally {
      await other.close();
    }
  });
});
