import { generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { canonicalText, DeviceOperation } from '../../src/mobile-app/device-signature';
import { TestApp } from './test-app';
import { FakeSubscription } from './fake-push-service';

/**
 * A phone running the authenticator app, as the service sees it: a P-256 key pair (node:crypto
 * here, WebCrypto in the app), a counter it keeps, and its signed calls of the device protocol.
 */
export class TestDevice {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  deviceId: string | null = null;
  counter = 0;

  constructor(
    private readonly t: TestApp,
    keys?: { privateKey: KeyObject; publicKey: KeyObject },
  ) {
    const pair = keys ?? generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  jwk(): Record<string, unknown> {
    return this.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  }

  /** the device's time: the service's test clock */
  time(): number {
    return Math.floor(this.t.clock.now().getTime() / 1000);
  }

  signature(text: string, key: KeyObject = this.privateKey): string {
    return sign('sha256', Buffer.from(text, 'utf8'), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  }

  /** The signature fields of a request of `operation`, with the next counter. */
  signed(operation: DeviceOperation, fields: readonly string[], options: { counter?: number; time?: number; key?: KeyObject } = {}) {
    const counter = options.counter ?? ++this.counter;
    const time = options.time ?? this.time();
    const deviceId = this.deviceId as string;
    return { deviceId, counter, time, signature: this.signature(canonicalText(operation, deviceId, counter, time, fields), options.key) };
  }

  async enroll(token: string, subscription: FakeSubscription | null = null, name?: string) {
    const counter = ++this.counter;
    const time = this.time();
    const fields = subscription ? [subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth] : ['-', '-', '-'];
    const res = await this.t
      .http()
      .post('/mobile-app/v1/devices')
      .send({
        token,
        publicKey: this.jwk(),
        ...(name ? { name } : {}),
        ...(subscription ? { subscription: { endpoint: subscription.endpoint, keys: subscription.keys } } : {}),
        counter,
        time,
        signature: this.signature(canonicalText('enroll', token, counter, time, fields)),
      });
    if (res.status === 200) this.deviceId = res.body.deviceId;
    return res;
  }

  approvals() {
    return this.t.http().post('/mobile-app/v1/approvals').send(this.signed('approvals', []));
  }

  decide(approvalId: string, choice: 'approve' | 'notMe' | number, nonce: string, options: Parameters<TestDevice['signed']>[2] = {}) {
    const body = { ...this.signed('decision', [approvalId, String(choice), nonce], options), approvalId, choice, nonce };
    return this.t.http().post('/mobile-app/v1/decisions').send(body);
  }
}
