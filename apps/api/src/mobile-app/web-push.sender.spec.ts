import { createPublicKey, verify } from 'node:crypto';
import { MobileAppDevicesRepository, SecretCipher } from '@twofold/persistence';
import { FakePushService } from '../../test/testing/fake-push-service';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, SLEEP } from '../config/injection-tokens';
import { Sleep } from '../config/sleep';
import { AppMetrics } from '../metrics/app-metrics';
import { pushPayload } from './mobile-app.transport';
import { retryAfterMs, WEB_PUSH_BUDGET_MS, WebPushSender } from './web-push.sender';

/** VAPID (RFC 8292) and payload encryption (RFC 8291), checked from the push service's and the browser's side. */
describe('Web Push delivery', () => {
  let t: TestApp;
  let push: FakePushService;
  let sender: WebPushSender;

  beforeAll(async () => {
    push = await FakePushService.start();
    t = await startTestApp({ webPushLoopbackHttp: true });
    sender = t.app.get(WebPushSender);
  });
  afterAll(async () => {
    await t?.close();
    await push?.close();
  });

  it('made the VAPID key pair at the first start, stored encrypted; another instance uses the same one', async () => {
    const [row] = await t.db.manager().query(`SELECT public_key, private_key_enc FROM web_push_vapid_keys`);
    expect(row.public_key).toBe(await sender.publicKey());
    expect((await t.http().get('/mobile-app/v1/push-key').expect(200)).body).toEqual({ publicKey: row.public_key });
    const privateKey = t.cipher.decryptText('web-push.vapid-private-key', row.private_key_enc);
    expect(Buffer.from(privateKey, 'base64url')).toHaveLength(32);
    expect(row.private_key_enc.includes(Buffer.from(privateKey))).toBe(false);
    const another = new WebPushSender(
      t.app.get(MobileAppDevicesRepository),
      t.app.get(SecretCipher),
      t.clock,
      t.app.get<AppConfig>(APP_CONFIG),
      t.app.get(AppMetrics),
      t.app.get<Sleep>(SLEEP),
    );
    await another.onModuleInit();
    expect(await another.publicKey()).toBe(row.public_key);
    expect(await t.db.manager().query(`SELECT count(*)::int AS n FROM web_push_vapid_keys`)).toEqual([{ n: 1 }]);
  });

  it("signs each push with the VAPID key for the push service's origin, and encrypts a payload only the subscription's keys open", async () => {
    const subscription = push.subscribe();
    expect(await sender.send({ endpoint: subscription.endpoint, ...subscription.keys }, pushPayload('4f1c…'), 60)).toEqual({ sent: true });
    const message = await push.nextPush(subscription);
    const [, jwt, k] = /^vapid t=([\w.-]+), k=([\w-]+)$/.exec(String(message.headers['authorization'])) ?? [];
    expect(k).toBe(await sender.publicKey());
    const [header, claims, signature] = jwt.split('.');
    const raw = Buffer.from(k, 'base64url');
    const key = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    expect(
      verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url')),
    ).toBe(true);
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256' });
    expect(JSON.parse(Buffer.from(claims, 'base64url').toString())).toMatchObject({ aud: push.url, sub: 'mailto:no-reply@twofold.test' });
    // the body is ciphertext; the subscription's private key and auth secret open it (an independent decoder)
    expect(message.body.includes(Buffer.from('approval'))).toBe(false);
    expect(JSON.parse(push.decrypt(message))).toEqual({ type: 'approval', approvalId: '4f1c…' });
  });

  /** A sender whose waits are recorded and move the test's clock, as the app's own do. */
  function recordingSender(): { sender: WebPushSender; waits: number[] } {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      t.clock.advance(ms);
    };
    const made = new WebPushSender(
      t.app.get(MobileAppDevicesRepository),
      t.app.get(SecretCipher),
      t.clock,
      t.app.get<AppConfig>(APP_CONFIG),
      t.app.get(AppMetrics),
      sleep,
    );
    return { sender: made, waits };
  }
  const keysOf = (subscription: ReturnType<FakePushService['subscribe']>) => ({ endpoint: subscription.endpoint, ...subscription.keys });

  it('tells a subscription the push service forgot (404, 410) and a refused message (400, 413) at once: never retried', async () => {
    const { sender: once, waits } = recordingSender();
    for (const [status, failure] of [
      [404, 'gone'],
      [410, 'gone'],
      [400, 'refused'],
      [413, 'refused'],
    ] as const) {
      const subscription = push.subscribe();
      push.answer(subscription, status);
      expect(await once.send(keysOf(subscription), pushPayload('x'), 60)).toEqual({ sent: false, failure, status });
      expect(push.attemptsTo(subscription)).toBe(1);
    }
    expect(waits).toEqual([]);
  });

  it('retries a 429 after its Retry-After when that fits in the bound, and a 503 after a short back-off', async () => {
    const { sender: retrying, waits } = recordingSender();
    const throttled = push.subscribe();
    push.answerNext(throttled, { status: 429, retryAfter: '2' });
    expect(await retrying.send(keysOf(throttled), pushPayload('x'), 60)).toEqual({ sent: true });
    expect(push.pushesTo(throttled)).toHaveLength(1);
    expect(push.attemptsTo(throttled)).toBe(2);
    expect(waits).toEqual([2000]);

    waits.length = 0;
    const failing = push.subscribe();
    push.answerNext(failing, 503);
    expect(await retrying.send(keysOf(failing), pushPayload('x'), 60)).toEqual({ sent: true });
    expect(push.attemptsTo(failing)).toBe(2);
    expect(waits).toEqual([250]);
  });

  it('gives up when the retries are spent, or when the next wait would end past the bound', async () => {
    const { sender: retrying, waits } = recordingSender();
    const down = push.subscribe();
    push.answer(down, 503);
    expect(await retrying.send(keysOf(down), pushPayload('x'), 60)).toEqual({ sent: false, failure: 'unreachable', status: 503 });
    expect(push.attemptsTo(down)).toBe(4);
    expect(waits).toEqual([250, 500, 1000]);

    // a Retry-After beyond the bound is not waited for: throttled now
    waits.length = 0;
    const slow = push.subscribe();
    push.answerNext(slow, { status: 429, retryAfter: String(WEB_PUSH_BUDGET_MS / 1000) });
    expect(await retrying.send(keysOf(slow), pushPayload('x'), 60)).toEqual({ sent: false, failure: 'throttled', status: 429 });
    expect(push.attemptsTo(slow)).toBe(1);
    expect(waits).toEqual([]);

    // no connection at all: retried like a 5xx, then unreachable
    const gone = await FakePushService.start();
    const lost = gone.subscribe();
    await gone.close();
    expect(await retrying.send(keysOf(lost), pushPayload('x'), 60)).toEqual({ sent: false, failure: 'unreachable' });
    expect(waits).toEqual([250, 500, 1000]);
  });

  it("never retries past the end of the approval's wait, when that comes before the bound", async () => {
    const { sender: retrying, waits } = recordingSender();
    const down = push.subscribe();
    push.answer(down, 503);
    const until = new Date(t.clock.now().getTime() + 1_000);
    expect(await retrying.send(keysOf(down), pushPayload('x'), 60, until)).toEqual({ sent: false, failure: 'unreachable', status: 503 });
    // 250 ms and 500 ms fit before the end; the next wait (1 s) would not
    expect(waits).toEqual([250, 500]);
    expect(push.attemptsTo(down)).toBe(3);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2026-05-20T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Wed, 20 May 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
