import { randomInt } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AccountId,
  ApprovalChannel,
  ApprovalChoice,
  ApprovalFactor,
  ApprovalFactorKind,
  approvalFatigue,
  ApprovalOutcome,
  approvalOutcomeOf,
  ApprovalRejectReason,
  Clock,
  DEFAULT_APPROVAL_WAIT_SECONDS,
  effectiveDisplayName,
  judgeApprovalChoice,
  newNumberChallenge,
  NOT_ME_LOOKBACK_MINUTES,
  NotFound,
} from '@twofold/domain';
import { JournalField, JournalWriter } from '@twofold/journal';
import { ApprovalEntity, ApprovalsRepository, Db, ResourcesRepository, UsersRepository } from '@twofold/persistence';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';
import { AppConfig } from '../config/app-config';
import { AppMetrics, ApprovalResult, DeliveryFailureLabel } from '../metrics/app-metrics';
import { ApprovalMessage, ApprovalTransports, DeliveryFailure } from './approval-transport';
import { ApprovalWaiter } from './approval-waiter';

/**
 * The longest the answer of a call waits for the database to record how its wait ended (expired,
 * cancelled). A working database takes milliseconds; a frozen one is not waited for (the approval's
 * own expiry refuses any later answer), so APPROVAL_WAIT_SECONDS (at most 58) plus this stays within
 * the 60 s after which the first clients give up.
 */
export const APPROVAL_SETTLE_TIMEOUT_MS = 1_000;

/** The access request an approval is asked for. */
export interface ApprovalSubject {
  accountId: AccountId;
  accessRequestId: string;
  userId: string;
  resourceId: string;
  channel: ApprovalChannel;
  /** the sign-in's address, shown to the user */
  address: string | null;
}

/** An approval recorded as Pending: what the access pipeline keeps between its steps. */
export interface OpenedApproval {
  accountId: AccountId;
  id: string;
  accessRequestId: string;
  factor: ApprovalFactorKind;
  authenticatorId: string;
  /** the number to show on the sign-in screen; null without a screen */
  number: number | null;
  expiresAt: Date;
}

export type OpenResult =
  | { kind: 'opened'; approval: OpenedApproval }
  /** push fatigue (libs/domain approvals.ts): nothing recorded, nothing sent */
  | { kind: 'refused'; reason: 'tooManyPending' }
  | { kind: 'refused'; reason: 'cooldown'; until: Date };

export type DeliveryResult = { kind: 'delivered' } | { kind: 'undeliverable'; failure: DeliveryFailure };

export type StartResult = { kind: 'waiting'; approval: OpenedApproval } | Extract<OpenResult, { kind: 'refused' }> | DeliveryResult;

/** How an approval came out, for the call that waited for it. */
export interface ApprovalDecision {
  /** `pending`: only when the caller's own bound came before the approval's expiry (a page polling again) */
  outcome: ApprovalOutcome | 'pending';
  /**
   * Why, beyond the outcome: `notMe`, `wrongNumber` (rejected); `clientGone` (cancelled: the caller
   * hung up); `restarting` (cancelled: the service is stopping; the answer says to try again).
   */
  reason: ApprovalRejectReason | 'clientGone' | 'restarting' | null;
  /** the approval as the database holds it afterwards (the factor that answered, its device's address); null if it could not be read */
  approval: ApprovalEntity | null;
}

/** What a device's answer did. */
export type DeviceAnswer =
  | { kind: 'decided'; approval: ApprovalEntity }
  /** nothing changed: already decided, expired, not an answer it offered, or lost a race */
  | { kind: 'ignored' };

const DELIVERY_FAILURE_LABELS: Record<DeliveryFailure, DeliveryFailureLabel> = {
  notConfigured: 'not_configured',
  notBound: 'not_bound',
  refused: 'refused',
  unreachable: 'unreachable',
  timeout: 'timeout',
  throttled: 'throttled',
};

export function approvalResultOf(approval: Pick<ApprovalEntity, 'status' | 'rejectReason'>): ApprovalResult {
  switch (approval.status) {
    case 'Approved':
      return 'approved';
    case 'Rejected':
      return approval.rejectReason === 'wrongNumber' ? 'rejected_wrong_number' : 'rejected_not_me';
    case 'Expired':
      return 'expired';
    case 'Cancelled':
      return 'cancelled';
    default:
      return 'undeliverable';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  return Promise.race([promise.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

/**
 * Out-of-band approval, channel-independent: the API the access pipeline calls. Its steps keep the
 * pipeline's rule that a waiting request holds no connection:
 * 1. `open` (inside the pipeline's transaction, which records the request): push fatigue under the
 *    user's row lock, then the Pending approval with its number;
 * 2. after that transaction commits, `deliver` (no transaction: a network call to the transport);
 *    `start` is both for a caller without a transaction of its own;
 * 3. `awaitDecision` (no connection held) until decided, expired, cancelled or the service stops;
 * 4. the pipeline applies the decision in a new transaction.
 * Answers come from the transports through `answerFromDevice`.
 */
@Injectable()
export class ApprovalsService {
  private readonly logger = new Logger('Approvals');
  /** awaitDecision calls still running: the shutdown waits for them to record how they ended */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly approvals: ApprovalsRepository,
    private readonly users: UsersRepository,
    private readonly resources: ResourcesRepository,
    private readonly transports: ApprovalTransports,
    private readonly waiter: ApprovalWaiter,
    private readonly journal: JournalWriter,
    private readonly metrics: AppMetrics,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The kinds of approval factor this instance can ask (a transport is configured). */
  reachableKinds(): Set<ApprovalFactorKind> {
    return this.transports.reachableKinds();
  }

  /** APPROVAL_WAIT_SECONDS */
  get waitSeconds(): number {
    return this.config.approvalWaitSeconds ?? DEFAULT_APPROVAL_WAIT_SECONDS;
  }

  /**
   * Records a Pending approval of `factor` for the subject's request, in the caller's transaction
   * (or one of its own), under the user's row lock so that parallel sign-ins of one user count each
   * other's approvals. Refused by push fatigue. `withNumber`: a sign-in with a screen, which shows the
   * number the user picks on the device. `expiresAt`: default now + APPROVAL_WAIT_SECONDS.
   */
  async open(subject: ApprovalSubject, factor: ApprovalFactor, options: { withNumber: boolean; expiresAt?: Date }): Promise<OpenResult> {
    const now = this.clock.now();
    return this.db.transaction(async (): Promise<OpenResult> => {
      const user = await this.users.findByIdForUpdate(subject.accountId, subject.userId);
      if (!user) throw new NotFound('User');
      const fatigue = await this.fatigueOf(subject.accountId, subject.userId, now);
      if (fatigue) return fatigue;
      const challenge = options.withNumber ? newNumberChallenge((max) => randomInt(max)) : null;
      const approval = await this.approvals.insert(subject.accountId, {
        accessRequestId: subject.accessRequestId,
        userId: subject.userId,
        resourceId: subject.resourceId,
        authenticatorId: factor.id,
        factor: factor.kind,
        channel: subject.channel,
        address: subject.address,
        number: challenge?.number ?? null,
        choices: challenge?.choices ?? null,
        createdAt: now,
        expiresAt: options.expiresAt ?? new Date(now.getTime() + this.waitSeconds * 1000),
      });
      return { kind: 'opened', approval: openedOf(approval) };
    });
  }

  /**
   * Push fatigue's refusal of one more approval of the user, or null when one may be asked. Read under
   * the user's row lock (the caller's transaction), so parallel sign-ins of one user count each other.
   */
  async fatigueOf(accountId: AccountId, userId: string, now: Date): Promise<Extract<OpenResult, { kind: 'refused' }> | null> {
    const fatigue = approvalFatigue({
      pending: await this.approvals.countPendingOfUser(accountId, userId, now),
      notMeAt: await this.approvals.notMeTimesOfUser(accountId, userId, new Date(now.getTime() - NOT_ME_LOOKBACK_MINUTES * 60_000)),
      now,
    });
    if (fatigue.allowed) return null;
    return fatigue.reason === 'cooldown'
      ? { kind: 'refused', reason: 'cooldown', until: fatigue.until }
      : { kind: 'refused', reason: 'tooManyPending' };
  }

  /**
   * Sends the question through the factor's transport (outside any transaction). A message that
   * cannot be delivered makes the approval Undeliverable at once: the call is answered now, not at
   * the end of the wait.
   */
  async deliver(opened: OpenedApproval): Promise<DeliveryResult> {
    const failed = async (failure: DeliveryFailure, approval: ApprovalEntity | null): Promise<DeliveryResult> => {
      this.metrics.approvalDeliveryFailed(opened.factor, DELIVERY_FAILURE_LABELS[failure]);
      if (approval) await this.settle(approval, 'Undeliverable');
      return { kind: 'undeliverable', failure };
    };
    let message: ApprovalMessage;
    let approval: ApprovalEntity | null;
    try {
      // sent once: a second attempt on the same request (another page, a retransmission) waits for the same message
      const claimed = await this.approvals.claimDelivery(opened.accountId, opened.id);
      if (!claimed) return { kind: 'delivered' };
      approval = claimed.approval;
      message = {
        approvalId: approval.id,
        accountId: approval.accountId,
        authenticatorId: opened.authenticatorId,
        accountName: effectiveDisplayName(claimed.account),
        resourceName: claimed.resourceName ?? '',
        address: approval.address,
        at: approval.createdAt,
        expiresAt: approval.expiresAt,
        choices: approval.choices,
      };
    } catch {
      // the database cannot answer: nothing is sent, the approval's expiry refuses any answer
      return failed('unreachable', null);
    }
    const transport = this.transports.of(opened.factor);
    if (!transport) return failed('notConfigured', approval);
    const delivery = await transport.deliver(message);
    if (!delivery.delivered) return failed(delivery.failure, approval);
    await this.approvals.setDeliveryRef(opened.accountId, opened.id, delivery.ref).catch(() => undefined);
    return { kind: 'delivered' };
  }

  /** `open` in a transaction of its own, then `deliver`. */
  async start(subject: ApprovalSubject, factor: ApprovalFactor, options: { withNumber: boolean; expiresAt?: Date }): Promise<StartResult> {
    const opened = await this.open(subject, factor, options);
    if (opened.kind === 'refused') return opened;
    const delivery = await this.deliver(opened.approval);
    return delivery.kind === 'delivered' ? { kind: 'waiting', approval: opened.approval } : delivery;
  }

  /**
   * Waits, holding no connection, until the approval is decided (on any instance), its expiry passes
   * on the clock, `signal` fires (the client hung up: the approval is cancelled, and a later answer
   * grants nothing) or the service stops (cancelled, "restarting"). `bound`: an earlier end for a
   * caller that asks again (the page's long poll), after which the approval stays Pending.
   */
  awaitDecision(opened: OpenedApproval, options: { signal?: AbortSignal; bound?: Date } = {}): Promise<ApprovalDecision> {
    const running = this.waitAndSettle(opened, options);
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
    return running;
  }

  private async waitAndSettle(opened: OpenedApproval, options: { signal?: AbortSignal; bound?: Date }): Promise<ApprovalDecision> {
    const limit = Math.min(opened.expiresAt.getTime(), this.clock.now().getTime() + this.waitSeconds * 1000);
    const callerFirst = options.bound !== undefined && options.bound.getTime() < limit;
    const deadline = callerFirst ? (options.bound as Date) : new Date(limit);
    const end = await this.waiter.wait({ accountId: opened.accountId, id: opened.id }, deadline, options.signal);
    switch (end.kind) {
      case 'decided':
        return decisionOf(end.approval);
      case 'deadline':
        if (callerFirst) return { outcome: 'pending', reason: null, approval: null };
        return this.settleBounded(opened, 'Expired', null);
      case 'aborted':
        return this.settleBounded(opened, 'Cancelled', 'clientGone');
      case 'shutdown':
        return this.settleBounded(opened, 'Cancelled', 'restarting');
    }
  }

  /**
   * Records how a wait ended, unless an answer got there first (then the answer stands: a user who
   * approved in the last instant is let in). Bounded: with the database frozen or gone, the wait's
   * own ending is answered anyway.
   */
  private async settleBounded(
    opened: OpenedApproval,
    status: 'Expired' | 'Cancelled',
    reason: ApprovalDecision['reason'],
  ): Promise<ApprovalDecision> {
    const after = await withTimeout(
      this.approvals.findById(opened.accountId, opened.id).then((row) => (row ? this.settle(row, status) : null)),
      APPROVAL_SETTLE_TIMEOUT_MS,
    );
    if (!after) return { outcome: approvalOutcomeOf(status), reason, approval: null };
    if (after.status === status) return { outcome: approvalOutcomeOf(status), reason, approval: after };
    return decisionOf(after);
  }

  /** Ends a Pending approval without an answer; counts and shows it when this call is the one that ended it. */
  private async settle(approval: ApprovalEntity, status: 'Expired' | 'Cancelled' | 'Undeliverable'): Promise<ApprovalEntity | null> {
    let settled: Awaited<ReturnType<ApprovalsRepository['settle']>>;
    try {
      settled = await this.approvals.settle(approval.accountId, approval.id, status, this.clock.now());
    } catch (error) {
      this.logger.warn(`could not record an approval as ${status} (${(error as Error).message})`);
      return null;
    }
    if (settled?.settledHere) {
      this.metrics.approvalDecided(settled.approval.channel, settled.approval.factor, approvalResultOf(settled.approval));
      if (status !== 'Undeliverable') void this.transports.of(settled.approval.factor)?.showOutcome(settled.approval);
    }
    return settled?.approval ?? null;
  }

  /**
   * A device's answer (a Telegram button, the mobile app), once the transport has authenticated it
   * for this approval. Decided only while Pending and unexpired, and only by an answer the approval
   * offered; "it wasn't me" is journaled (`AccessRequest Reject`, with the address and the resource)
   * in the decision's transaction. The waiting instance hears of it on commit.
   */
  async answerFromDevice(
    approval: ApprovalEntity,
    choice: ApprovalChoice,
    device: { decidedBy: string; address: string | null },
  ): Promise<DeviceAnswer> {
    const now = this.clock.now();
    const verdict = judgeApprovalChoice(approval, choice, now);
    if (verdict.outcome === 'ignore') return { kind: 'ignored' };
    const decided = await this.db.transaction(async () => {
      const row = await this.approvals.answer(approval.accountId, approval.id, {
        status: verdict.status,
        rejectReason: verdict.status === 'Rejected' ? verdict.reason : null,
        at: now,
        decidedBy: device.decidedBy,
        decidedFromAddress: device.address,
      });
      if (row?.rejectReason === 'notMe') await this.journalNotMe(row);
      return row;
    });
    if (!decided) return { kind: 'ignored' };
    this.metrics.approvalDecided(decided.channel, decided.factor, approvalResultOf(decided));
    this.waiter.decided(decided);
    return { kind: 'decided', approval: decided };
  }

  /** `AccessRequest Reject`: the user said the sign-in was not theirs. The subject is the user, who acted. */
  private async journalNotMe(approval: ApprovalEntity): Promise<void> {
    const [user, resource] = await Promise.all([
      this.users.findById(approval.accountId, approval.userId),
      this.resources.findById(approval.accountId, approval.resourceId),
    ]);
    const identity = user?.identity ?? approval.userId;
    await this.journal.record(approval.accountId, {
      object: 'AccessRequest',
      action: 'Reject',
      subject: identity,
      success: true,
      additionalFields: {
        [JournalField.userIp]: approval.address ?? '',
        [JournalField.userIdentity]: identity,
        [JournalField.twoFactorMethod]: approval.factor,
        UserId: approval.userId,
        Resource: resource?.name ?? approval.resourceId,
        ResourceId: approval.resourceId,
        AccessRequestId: approval.accessRequestId,
        Channel: approval.channel,
        ...(approval.authenticatorId ? { AuthenticatorId: approval.authenticatorId } : {}),
      },
    });
  }

  /** The shutdown: every wait ends now ("restarting"), and each records that before the database closes (bounded). */
  async shutdown(): Promise<void> {
    this.waiter.shutdown();
    await withTimeout(Promise.allSettled([...this.inFlight]), APPROVAL_SETTLE_TIMEOUT_MS + 500);
  }
}

function openedOf(approval: ApprovalEntity): OpenedApproval {
  return {
    accountId: approval.accountId,
    id: approval.id,
    accessRequestId: approval.accessRequestId,
    factor: approval.factor,
    authenticatorId: approval.authenticatorId as string,
    number: approval.number,
    expiresAt: approval.expiresAt,
  };
}

function decisionOf(approval: ApprovalEntity): ApprovalDecision {
  if (approval.status === 'Pending') return { outcome: 'pending', reason: null, approval };
  return { outcome: approvalOutcomeOf(approval.status), reason: approval.rejectReason, approval };
}
