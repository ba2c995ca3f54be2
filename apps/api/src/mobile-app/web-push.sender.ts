import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock } from '@twofold/domain';
import { MobileAppDevicesRepository, PushSubscriptionKeys, SecretCipher } from '@twofold/persistence';
import { generateRequestDetails, generateVAPIDKeys } from 'web-push';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';

/** How long one push may take: a push service that hangs makes the approval Undeliverable after this, far inside the wait. */
export const WEB_PUSH_BUDGET_MS = 10_000;

export type PushResult =
  | { sent: true }
  /** `gone`: the push service no longer knows the subscription (404/410); the others as a transport's failures */
  | { sent: false; failure: 'gone' | 'refused' | 'throttled' | 'unreachable' | 'timeout'; status?: number };

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and payload encryption (RFC 8291, aes128gcm), built by the
 * maintained `web-push` library; the request itself is sent here with our own bound (`web-push`'s
 * own sender speaks https only and knows no total deadline). The VAPID key pair is made at the first
 * start of the first instance and stored encrypted (SecretCipher); every instance reads the same one,
 * so subscriptions made against its public key keep working across instances and restarts.
 */
@Injectable()
export class WebPushSender implements OnModuleInit {
  private readonly logger = new Logger('WebPush');
  private keys: { publicKey: string; privateKey: string } | null = null;

  constructor(
    private readonly devices: MobileAppDevicesRepository,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    try {
      await this.loadKeys();
    } catch (error) {
      // the database may be down at start: the keys are read again on first use
      this.logger.warn(`VAPID keys not loaded yet (${(error as Error).message})`);
    }
  }

  /** The VAPID public key (base64url, uncompressed P-256), which the app subscribes with as applicationServerKey. */
  async publicKey(): Promise<string> {
    return (await this.loadKeys()).publicKey;
  }

  private async loadKeys(): Promise<{ publicKey: string; privateKey: string }> {
    if (this.keys) return this.keys;
    let stored = await this.devices.vapidKeys();
    if (!stored) {
      const made = generateVAPIDKeys();
      await this.devices.insertVapidKeysIfNone(
        made.publicKey,
        this.cipher.encrypt('web-push.vapid-private-key', made.privateKey),
        this.clock.now(),
      );
      stored = await this.devices.vapidKeys();
      if (!stored) throw new Error('the VAPID keys could not be stored');
    }
    this.keys = { publicKey: stored.publicKey, privateKey: this.cipher.decryptText('web-push.vapid-private-key', stored.privateKeyEnc) };
    return this.keys;
  }

  /** The VAPID `sub`: PUBLIC_URL when it is https, else the mailbox of MAIL_FROM (push services accept either). */
  subject(): string {
    if (this.config.publicUrl.startsWith('https://')) return this.config.publicUrl;
    const mailbox = /<([^>]+)>/.exec(this.config.mailFrom)?.[1] ?? this.config.mailFrom;
    return `mailto:${mailbox.trim()}`;
  }

  async send(subscription: PushSubscriptionKeys, payload: string, ttlSeconds: number): Promise<PushResult> {
    let details;
    try {
      const keys = await this.loadKeys();
      details = generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        {
          vapidDetails: { subject: this.subject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: Math.max(0, Math.floor(ttlSeconds)),
          urgency: 'high',
          contentEncoding: 'aes128gcm',
        },
      );
    } catch (error) {
      this.logger.warn(`push not built (${(error as Error).message})`);
      return { sent: false, failure: 'refused' };
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
    try {
      const response = await fetch(details.endpoint, {
        method: 'POST',
        headers,
        body: details.body ?? undefined,
        signal: AbortSignal.timeout(WEB_PUSH_BUDGET_MS),
        redirect: 'manual',
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { sent: true };
      // the push service's status only: the endpoint URL identifies the subscription and is never logged
      this.logger.warn(`push refused by the push service: ${response.status}`);
      if (response.status === 404 || response.status === 410) return { sent: false, failure: 'gone', status: response.status };
      if (response.status === 429) return { sent: false, failure: 'throttled', status: 429 };
      if (response.status >= 500) return { sent: false, failure: 'unreachable', status: response.status };
      return { sent: false, failure: 'refused', status: response.status };
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      this.logger.warn(`push not sent: ${timedOut ? 'timeout' : 'push service unreachable'}`);
      return { sent: false, failure: timedOut ? 'timeout' : 'unreachable' };
    }
  }
}
