import { createPublicKey, verify } from 'node:crypto';
import { MobileAppDevicesRepository, SecretCipher } from '@twofold/persistence';
import { FakePushService } from '../../test/testing/fake-push-service';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/injection-tokens';
import { pushPayload } from './mobile-app.transport';
import { WebPushSender } from './web-push.sender';

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

  it('tells a subscription the push service forgot (404, 410) from throttling and failures', async () => {
    const subscription = push.subscribe();
    const keys = { endpoint: subscription.endpoint, ...subscription.keys };
    for (const [status, failure] of [
      [404, 'gone'],
      [410, 'gone'],
      [429, 'throttled'],
      [503, 'unreachable'],
      [400, 'refused'],
    ] as const) {
      push.answer(subscription, status);
      expect(await sender.send(keys, pushPayload('x'), 60)).toEqual({ sent: false, failure, status });
    }
    await push.close();
    expect(await sender.send(keys, pushPayload('x'), 60)).toEqual({ sent: false, failure: 'unreachable' });
    push = await FakePushService.start();
  });
});
