import { Inject, Injectable } from '@nestjs/common';
import { ValidationFailed } from '@twofold/domain';
import { PushSubscriptionKeys } from '@twofold/persistence';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/injection-tokens';

const MAX_ENDPOINT_LENGTH = 2048;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A value sent as a subscription: `{endpoint, keys: {p256dh, auth}}` as PushSubscription.toJSON() gives it; null when absent. */
export function parsePushSubscription(value: unknown): PushSubscriptionKeys | null {
  if (value === undefined || value === null) return null;
  const subscription = value as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } };
  const { endpoint } = subscription;
  const p256dh = subscription.keys?.p256dh;
  const auth = subscription.keys?.auth;
  if (typeof endpoint !== 'string' || typeof p256dh !== 'string' || typeof auth !== 'string')
    throw new ValidationFailed('subscription must be {endpoint, keys: {p256dh, auth}}.');
  return { endpoint, p256dh, auth };
}

/**
 * What a Web Push subscription must be: an https endpoint (the push service the browser chose) of
 * reasonable length, the browser's uncompressed P-256 key (65 bytes) and a 16-byte auth secret, as
 * RFC 8291 needs them.
 */
@Injectable()
export class MobileAppSubscriptionRules {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  check(subscription: PushSubscriptionKeys): void {
    let url: URL;
    try {
      url = new URL(subscription.endpoint);
    } catch {
      throw new ValidationFailed('subscription.endpoint must be an https URL.');
    }
    const loopbackHttp = this.config.webPushLoopbackHttp === true && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
    if (
      (url.protocol !== 'https:' && !loopbackHttp) ||
      subscription.endpoint.length > MAX_ENDPOINT_LENGTH ||
      /\s/.test(subscription.endpoint)
    )
      throw new ValidationFailed('subscription.endpoint must be an https URL.');
    const p256dh = base64url(subscription.p256dh);
    if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 0x04)
      throw new ValidationFailed('subscription.keys.p256dh must be a P-256 public key.');
    const auth = base64url(subscription.auth);
    if (!auth || auth.length !== 16) throw new ValidationFailed('subscription.keys.auth must be 16 bytes.');
  }
}

function base64url(value: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return null;
  return Buffer.from(value, 'base64url');
}
