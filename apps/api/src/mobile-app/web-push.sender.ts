import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock } from '@twofold/domain';
import { MobileAppDevicesRepository, PushSubscriptionKeys, SecretCipher } from '@twofold/persistence';
import { generateRequestDetails, generateVAPIDKeys } from 'web-push';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, CLOCK, SLEEP } from '../config/injection-tokens';
import { Sleep } from '../config/sleep';
import { AppMetrics } from '../metrics/app-metrics';

/**
 * How long one push may take, its retries included: a push service that hangs or keeps failing makes
 * the approval Undeliverable after this, or at the end of the approval's wait when that comes first.
 */
export const WEB_PUSH_BUDGET_MS = 10_000;
/** Attempts of one push at most, the first included. */
export const WEB_PUSH_MAX_ATTEMPTS = 4;
/** The first wait before retrying a 5xx or an unreachable push service; it doubles, up to WEB_PUSH_RETRY_MAX_MS. */
export const WEB_PUSH_RETRY_INITIAL_MS = 250;
export const WEB_PUSH_RETRY_MAX_MS = 2_000;
/** A 429 without a usable Retry-After waits this long before its retry. */
export const WEB_PUSH_THROTTLED_DEFAULT_MS = 1_000;

export type PushFailure = 'gone' | 'refused' | 'throttled' | 'unreachable' | 'timeout';

export type PushResult =
  | { sent: true }
  /** `gone`: the push service no longer knows the subscription (404/410); the others as a transport's failures */
  | { sent: false; failure: PushFailure; status?: number };

/** One attempt's answer; `retryAfterMs` from a 429's Retry-After (seconds or an HTTP date). */
type Attempt = PushResult & { retryAfterMs?: number };

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

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
    private readonly metrics: AppMetrics,
    @Inject(SLEEP) private readonly sleep: Sleep,
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

  /**
   * Sends one push with the retry rules of an approval, within WEB_PUSH_BUDGET_MS and before `until`
   * (the end of the approval's wait, when given): a 429 is retried
   * after its Retry-After when that fits in the bound (else after a second), a 5xx or an unreachable
   * push service after a short back-off doubling up to 2 s, at most WEB_PUSH_MAX_ATTEMPTS times. A
   * subscription the push service forgot (404/410) and a refused message (400, 413, …) are final at
   * once; so is a failure whose next wait would end past the bound. A push service that does not
   * answer within the bound is `timeout`, never retried (the bound is spent).
   */
  async send(subscription: PushSubscriptionKeys, payload: string, ttlSeconds: number, until?: Date): Promise<PushResult> {
    const bound = this.clock.now().getTime() + WEB_PUSH_BUDGET_MS;
    const deadline = until ? Math.min(bound, until.getTime()) : bound;
    let backoffMs = WEB_PUSH_RETRY_INITIAL_MS;
    for (let attempt = 1; ; attempt++) {
      const left = deadline - this.clock.now().getTime();
      const result = await this.attempt(subscription, payload, ttlSeconds, Math.max(1, left));
      const { retryAfterMs: hinted, ...answer } = result;
      if (answer.sent || !['throttled', 'unreachable'].includes(answer.failure) || attempt >= WEB_PUSH_MAX_ATTEMPTS) {
        this.metrics.pushSent(answer.sent ? 'delivered' : answer.failure);
        return answer;
      }
      const waitMs = answer.failure === 'throttled' ? (hinted ?? WEB_PUSH_THROTTLED_DEFAULT_MS) : backoffMs;
      backoffMs = Math.min(backoffMs * 2, WEB_PUSH_RETRY_MAX_MS);
      // a wait that would end past the bound is not waited: the failure is final now
      if (this.clock.now().getTime() + waitMs >= deadline) {
        this.metrics.pushSent(answer.failure);
        return answer;
      }
      this.metrics.pushSent('retried');
      await this.sleep(waitMs);
    }
  }

  /** One POST to the push service, bounded by `timeoutMs`, classified. */
  private async attempt(subscription: PushSubscriptionKeys, payload: string, ttlSeconds: number, timeoutMs: number): Promise<Attempt> {
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
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'manual',
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { sent: true };
      // the push service's status only: the endpoint URL identifies the subscription and is never logged
      this.logger.warn(`push refused by the push service: ${response.status}`);
      if (response.status === 404 || response.status === 410) return { sent: false, failure: 'gone', status: response.status };
      if (response.status === 429) {
        const hinted = retryAfterMs(response.headers.get('retry-after'), this.clock.now());
        return { sent: false, failure: 'throttled', status: 429, ...(hinted !== undefined ? { retryAfterMs: hinted } : {}) };
      }
      if (response.status >= 500) return { sent: false, failure: 'unreachable', status: response.status };
      return { sent: false, failure: 'refused', status: response.status };
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      this.logger.warn(`push not sent: ${timedOut ? 'timeout' : 'push service unreachable'}`);
      return { sent: false, failure: timedOut ? 'timeout' : 'unreachable' };
    }
  }
}
