import { Injectable } from '@nestjs/common';
import { AccountId, ApprovalFactorKind } from '@twofold/domain';
import { ApprovalDeliveryRef, ApprovalEntity } from '@twofold/persistence';

/**
 * The boundary between the approval state machine and the ways of reaching a user's phone. Telegram
 * is the first transport; the service's own mobile app (Web Push) implements the same interface.
 * A transport delivers the question and changes its message once the approval is decided; answers
 * come back through ApprovalsService.answerFromDevice, whatever carried them.
 */
export interface ApprovalTransport {
  readonly kind: ApprovalFactorKind;
  /**
   * Sends the question to the factor's device, retrying what may pass on a second try (throttling,
   * the server's 5xx, timeouts) within a bound far below the wait's, and answers once it knows.
   * Never throws: every failure is a DeliveryFailure.
   */
  deliver(message: ApprovalMessage): Promise<Delivery>;
  /** Shows the decision where the question was asked (best effort: the decision stands either way). */
  showOutcome(approval: ApprovalEntity): Promise<void>;
}

/** Everything a user needs to tell their own sign-in from someone else's; never a code, key or token. */
export interface ApprovalMessage {
  approvalId: string;
  accountId: AccountId;
  /** the factor asked */
  authenticatorId: string;
  /** the account's display name: whose service the user signs in to */
  accountName: string;
  resourceName: string;
  /** the sign-in's address (`ip`/`callingStationId`, or the page's visitor); null when unknown */
  address: string | null;
  at: Date;
  /** when the approval's wait ends: a transport's retries never outlive it (absent: the transport's own bound alone) */
  expiresAt?: Date;
  /** the numbers to offer (one of them shown on the sign-in screen); null: approve / "it wasn't me" */
  choices: readonly number[] | null;
}

/**
 * Why a message was not delivered: no transport of the kind is configured; the authenticator has no
 * device (a Telegram chat) any more; the server refused it for good (a chat that blocked the bot, a
 * wrong token); it could not be reached or answered garbage; it did not answer in time; it kept
 * throttling beyond the delivery's bound.
 */
export type DeliveryFailure = 'notConfigured' | 'notBound' | 'refused' | 'unreachable' | 'timeout' | 'throttled';

export type Delivery = { delivered: true; ref: ApprovalDeliveryRef } | { delivered: false; failure: DeliveryFailure };

/**
 * The transports configured in this process. Each registers itself when its module starts, so that
 * the approvals module, which the transports depend on to pass answers back, does not depend on them.
 */
@Injectable()
export class ApprovalTransports {
  private readonly byKind = new Map<ApprovalFactorKind, ApprovalTransport>();

  register(transport: ApprovalTransport): void {
    this.byKind.set(transport.kind, transport);
  }

  of(kind: ApprovalFactorKind): ApprovalTransport | undefined {
    return this.byKind.get(kind);
  }

  /** The kinds of approval factor that can be asked now. */
  reachableKinds(): Set<ApprovalFactorKind> {
    return new Set(this.byKind.keys());
  }
}
