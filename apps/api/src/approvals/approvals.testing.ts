import { randomUUID } from 'node:crypto';
import { AccountId, ApprovalChannel, ApprovalFactorKind } from '@twofold/domain';
import { AccessRequestsRepository, AuthenticatorsRepository, Db, SecretCipher } from '@twofold/persistence';
import { decidedAccessRequest, newAccount, newResource, newUser } from '@twofold/persistence/testing';
import { ApprovalMessage, ApprovalTransport, Delivery } from './approval-transport';
import { ApprovalSubject } from './approvals.service';
import { WaiterTimers } from './approval-waiter';

/** Timers that never fire: the test drives the waiter's `tick()` and `expireDue()` itself. */
export const MANUAL_TIMERS: WaiterTimers = { every: () => () => undefined, after: () => () => undefined };

/** A user with an approval factor, and a way to make access requests for it. */
export interface ApprovalFixture {
  accountId: AccountId;
  userId: string;
  identity: string;
  resourceId: string;
  resourceName: string;
  authenticatorId: string;
  /** a new access request of the user, awaiting; the subject of an approval of it */
  subject(channel?: ApprovalChannel, address?: string | null): Promise<ApprovalSubject>;
}

export async function approvalFixture(
  db: Db,
  cipher: SecretCipher,
  options: { kind?: ApprovalFactorKind; now?: Date; accountId?: AccountId; displayName?: string } = {},
): Promise<ApprovalFixture> {
  const now = options.now ?? new Date();
  const accountId = options.accountId ?? (await newAccount(db, cipher, { name: options.displayName ?? 'Acme', now })).account.id;
  const identity = `jane-${randomUUID().slice(0, 8)}`;
  const user = await newUser(db, accountId, identity, { now });
  const resource = (await newResource(db, cipher, accountId, 'VPN', { now })).resource;
  const authenticator = await new AuthenticatorsRepository(db).insert(accountId, {
    userId: user.id,
    kind: options.kind ?? 'Telegram',
    name: options.kind ?? 'Telegram',
    secretEnc: null,
    privateIdEnc: null,
    algorithm: null,
    digits: null,
    hotpCounter: null,
    lastTimeStep: null,
    createdAt: now,
  });
  const requests = new AccessRequestsRepository(db);
  return {
    accountId,
    userId: user.id,
    identity,
    resourceId: resource.id,
    resourceName: resource.name,
    authenticatorId: authenticator.id,
    subject: async (channel = 'ra', address = '203.0.113.7') => {
      const accessRequestId = await requests.insertDecided(accountId, {
        ...decidedAccessRequest({ resourceId: resource.id, userId: user.id, identity, createdAt: now }),
        channel: channel === 'la' ? 'ra' : channel,
      });
      return { accountId, accessRequestId, userId: user.id, resourceId: resource.id, channel, address };
    },
  };
}

/** A transport that records what it was asked to deliver and answers as told. */
export class RecordingTransport implements ApprovalTransport {
  readonly delivered: ApprovalMessage[] = [];
  readonly shown: string[] = [];
  answer: Delivery = { delivered: true, ref: { message: 1 } };

  constructor(readonly kind: ApprovalFactorKind = 'Telegram') {}

  async deliver(message: ApprovalMessage): Promise<Delivery> {
    this.delivered.push(message);
    return this.answer;
  }

  async showOutcome(approval: { id: string; status: string }): Promise<void> {
    this.shown.push(`${approval.id}:${approval.status}`);
  }
}
