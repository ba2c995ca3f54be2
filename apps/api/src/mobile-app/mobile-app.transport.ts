import { Injectable, OnModuleInit } from '@nestjs/common';
import { MobileAppDevicesRepository } from '@twofold/persistence';
import { ApprovalMessage, ApprovalTransport, ApprovalTransports, Delivery } from '../approvals/approval-transport';
import { WebPushSender } from './web-push.sender';

/**
 * The push's whole content: that an approval waits, and which. Never a code, key, token, or even
 * the sign-in's details: the app fetches those with a signed request, so a push service (which sees
 * only ciphertext anyway) or a lost notification tells nobody anything.
 */
export function pushPayload(approvalId: string): string {
  return JSON.stringify({ type: 'approval', approvalId });
}

/** A push older than the longest wait (58 s) is useless: the push service may drop it after a minute. */
export const PUSH_TTL_SECONDS = 60;

/**
 * Approvals through the service's own authenticator app: a Web Push message to the device's
 * subscription wakes the app, which fetches the approval and sends its signed decision
 * (MobileAppService). A push service that no longer knows the subscription (404/410) makes the
 * device forget it (and the next approvals are Undeliverable until the app subscribes again); every
 * failure makes the approval Undeliverable at once. A device that never had a subscription (its user
 * blocked notifications) is asked all the same: the app fetches the pending approvals when opened.
 */
@Injectable()
export class MobileAppTransport implements ApprovalTransport, OnModuleInit {
  readonly kind = 'MobileApp' as const;

  constructor(
    private readonly devices: MobileAppDevicesRepository,
    private readonly sender: WebPushSender,
    private readonly transports: ApprovalTransports,
  ) {}

  onModuleInit(): void {
    this.transports.register(this);
  }

  async deliver(message: ApprovalMessage): Promise<Delivery> {
    let device;
    try {
      device = await this.devices.deviceOf(message.accountId, message.authenticatorId);
    } catch {
      return { delivered: false, failure: 'unreachable' };
    }
    if (!device || device.disabled || device.pushGone) return { delivered: false, failure: 'notBound' };
    // notifications blocked on the phone: no push, but the app lists what waits as soon as it is opened
    if (!device.subscription) return { delivered: true, ref: { via: 'app-open' } };
    const sent = await this.sender.send(device.subscription, pushPayload(message.approvalId), PUSH_TTL_SECONDS, message.expiresAt);
    if (sent.sent) return { delivered: true, ref: { via: 'webpush' } };
    if (sent.failure === 'gone') {
      await this.devices.dropSubscription(device.accountId, device.authenticatorId, device.subscription.endpoint).catch(() => undefined);
      return { delivered: false, failure: 'refused' };
    }
    return { delivered: false, failure: sent.failure };
  }

  /** The app asks for pending approvals when opened; a decided one is simply no longer listed. */
  async showOutcome(): Promise<void> {
    return;
  }
}
