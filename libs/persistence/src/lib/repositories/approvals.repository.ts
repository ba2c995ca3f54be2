import { AccountId, ApprovalFinalStatus, ApprovalRejectReason, ApprovalStatus } from '@twofold/domain';
import { Db } from '../transaction-context';
import { ApprovalDeliveryRef, ApprovalEntity } from '../entities';

/**
 * The PostgreSQL channel on which every approval that leaves Pending is announced, its id as the
 * payload. Sent in the transaction of the decision, so it is delivered when the decision commits;
 * the instance waiting for that approval (any instance) hears it and ends its wait.
 */
export const APPROVAL_DECIDED_CHANNEL = 'twofold_approval_decided';

export type NewApproval = Pick<
  ApprovalEntity,
  | 'accessRequestId'
  | 'userId'
  | 'resourceId'
  | 'authenticatorId'
  | 'factor'
  | 'channel'
  | 'address'
  | 'number'
  | 'choices'
  | 'createdAt'
  | 'expiresAt'
>;

/** An answer from the device. */
export interface ApprovalAnswer {
  status: 'Approved' | 'Rejected';
  rejectReason: ApprovalRejectReason | null;
  at: Date;
  /** `telegram:<chat id>`, or the mobile app's device */
  decidedBy: string;
  decidedFromAddress: string | null;
}

/** An approval the caller waits for: it knows the account, so the read stays scoped by it. */
export interface ApprovalKey {
  accountId: AccountId;
  id: string;
}

type Row = Record<string, unknown>;

/** A delivery claimed (ApprovalsRepository.claimDelivery): the approval and the names its message shows. */
export interface ClaimedDelivery {
  approval: ApprovalEntity;
  account: { name: string; displayName: string | null };
  /** null when the resource is gone */
  resourceName: string | null;
}

function toApproval(row: Row): ApprovalEntity {
  return Object.assign(new ApprovalEntity(), {
    id: row['id'],
    accountId: row['account_id'],
    accessRequestId: row['access_request_id'],
    userId: row['user_id'],
    resourceId: row['resource_id'],
    authenticatorId: row['authenticator_id'],
    factor: row['factor'],
    channel: row['channel'],
    address: row['address'],
    number: row['number'],
    choices: row['choices'],
    status: row['status'],
    rejectReason: row['reject_reason'],
    createdAt: row['created_at'],
    expiresAt: row['expires_at'],
    decidedAt: row['decided_at'],
    decidedBy: row['decided_by'],
    decidedFromAddress: row['decided_from_address'],
    deliveryRef: row['delivery_ref'],
  } as Partial<ApprovalEntity>);
}

/**
 * Approvals (libs/domain approvals.ts). Every change of status is a conditional UPDATE on its still
 * being Pending, with the announcement on APPROVAL_DECIDED_CHANNEL in the same statement: of parallel
 * answers, expiries and cancellations on any instance exactly one wins, and the others read its result.
 */
export class ApprovalsRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(ApprovalEntity);
  }

  private query(sql: string, params: unknown[]): Promise<Row[]> {
    return this.db.manager().query(sql, params);
  }

  insert(accountId: AccountId, values: NewApproval): Promise<ApprovalEntity> {
    return this.repo().save(
      this.repo().create({
        ...values,
        accountId,
        status: 'Pending',
        rejectReason: null,
        decidedAt: null,
        decidedBy: null,
        decidedFromAddress: null,
        deliveryRef: null,
      }),
    );
  }

  findById(accountId: AccountId, id: string): Promise<ApprovalEntity | null> {
    return this.repo().findOneBy({ accountId, id });
  }

  findByAccessRequest(accountId: AccountId, accessRequestId: string): Promise<ApprovalEntity | null> {
    return this.repo().findOneBy({ accountId, accessRequestId });
  }

  /**
   * A device's answer names the approval only (a Telegram button carries its id, authenticated by an
   * HMAC over it and the chat), so this one lookup is not scoped by account: the caller checks the
   * approval's own authenticator and chat before anything is decided.
   */
  findForDevice(id: string): Promise<ApprovalEntity | null> {
    return this.repo().findOneBy({ id });
  }

  /** The approvals a factor's device may still answer at `now`, oldest first (the mobile app asks for them). */
  async pendingOfAuthenticator(accountId: AccountId, authenticatorId: string, now: Date): Promise<ApprovalEntity[]> {
    const rows = await this.query(
      `SELECT * FROM approvals
        WHERE account_id = $1 AND authenticator_id = $2 AND status = 'Pending' AND expires_at > $3
        ORDER BY created_at, id LIMIT 20`,
      [accountId, authenticatorId, now],
    );
    return rows.map(toApproval);
  }

  /** Approvals of the user still waiting for an answer at `now` (push fatigue). */
  async countPendingOfUser(accountId: AccountId, userId: string, now: Date): Promise<number> {
    const rows = await this.query(
      `SELECT count(*)::int AS n FROM approvals WHERE account_id = $1 AND user_id = $2 AND status = 'Pending' AND expires_at > $3`,
      [accountId, userId, now],
    );
    return rows[0]['n'] as number;
  }

  /** When the user answered "it wasn't me", since `since` (push fatigue). */
  async notMeTimesOfUser(accountId: AccountId, userId: string, since: Date): Promise<Date[]> {
    const rows = await this.query(
      `SELECT decided_at FROM approvals WHERE account_id = $1 AND user_id = $2 AND reject_reason = 'notMe' AND decided_at >= $3`,
      [accountId, userId, since],
    );
    return rows.map((row) => row['decided_at'] as Date);
  }

  /**
   * The device's answer, taken only while the approval is Pending and before its expiry. Returns the
   * decided approval, or null when it was no longer open (decided, settled or expired): the answer
   * then changes nothing.
   */
  async answer(accountId: AccountId, id: string, answer: ApprovalAnswer): Promise<ApprovalEntity | null> {
    const rows = await this.query(
      `WITH decided AS (
         UPDATE approvals SET status = $3, reject_reason = $4, decided_at = $5, decided_by = $6, decided_from_address = $7
          WHERE account_id = $1 AND id = $2 AND status = 'Pending' AND expires_at > $5
         RETURNING *
       )
       SELECT decided.*, pg_notify('${APPROVAL_DECIDED_CHANNEL}', decided.id::text) IS NOT NULL AS notified FROM decided`,
      [accountId, id, answer.status, answer.rejectReason, answer.at, answer.decidedBy, answer.decidedFromAddress],
    );
    return rows.length > 0 ? toApproval(rows[0]) : null;
  }

  /**
   * Ends a Pending approval without an answer (expired, cancelled, undeliverable). Returns the
   * approval as it is afterwards, and whether this call ended it (`settledHere`: false when an answer
   * or another settling came first); null when it does not exist (its request was deleted).
   */
  async settle(
    accountId: AccountId,
    id: string,
    status: Exclude<ApprovalFinalStatus, 'Approved' | 'Rejected'>,
    at: Date,
  ): Promise<{ approval: ApprovalEntity; settledHere: boolean } | null> {
    const rows = await this.query(
      `WITH settled AS (
         UPDATE approvals SET status = $3, decided_at = $4
          WHERE account_id = $1 AND id = $2 AND status = 'Pending'
         RETURNING *
       )
       SELECT settled.*, pg_notify('${APPROVAL_DECIDED_CHANNEL}', settled.id::text) IS NOT NULL AS settled_here FROM settled
       UNION ALL
       SELECT a.*, false FROM approvals a WHERE a.account_id = $1 AND a.id = $2 AND NOT EXISTS (SELECT 1 FROM settled)`,
      [accountId, id, status, at],
    );
    return rows.length > 0 ? { approval: toApproval(rows[0]), settledHere: rows[0]['settled_here'] === true } : null;
  }

  /**
   * Of the approvals an instance waits for, those no longer Pending: the once-a-second read that ends
   * waits whose announcement did not arrive (a transaction pooler drops LISTEN's notifications). One
   * statement for every wait of the instance, each row found by its primary key.
   */
  async decidedAmong(keys: readonly ApprovalKey[]): Promise<ApprovalEntity[]> {
    if (keys.length === 0) return [];
    const rows = await this.query(
      `SELECT a.* FROM approvals a
         JOIN unnest($1::uuid[], $2::uuid[]) AS w(account_id, id) ON a.id = w.id AND a.account_id = w.account_id
        WHERE a.status <> 'Pending'`,
      [keys.map((key) => key.accountId), keys.map((key) => key.id)],
    );
    return rows.map(toApproval);
  }

  /**
   * Claims the sending of a Pending approval's message, once: of parallel attempts on one request (two
   * first visits of a page) exactly one gets true and sends; the claim is an empty delivery ref until
   * the transport's own replaces it. Null when it is not Pending, not this account's, or claimed already.
   */
  async claimDelivery(accountId: AccountId, id: string): Promise<ClaimedDelivery | null> {
    // one statement with what the message names: the delivery runs after the decision's commit, when a
    // burst of sign-ins queues for the pool, and each separate read went to the back of that queue
    const rows = await this.query(
      `WITH claimed AS (
         UPDATE approvals SET delivery_ref = '{}'::jsonb
          WHERE account_id = $1 AND id = $2 AND status = 'Pending' AND delivery_ref IS NULL
         RETURNING *
       )
       SELECT claimed.*, accounts.name AS claimed_account_name, accounts.display_name AS claimed_account_display_name,
              resources.name AS claimed_resource_name
         FROM claimed
         JOIN accounts ON accounts.id = claimed.account_id
         LEFT JOIN resources ON resources.account_id = claimed.account_id AND resources.id = claimed.resource_id`,
      [accountId, id],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      approval: toApproval(row),
      account: { name: row['claimed_account_name'] as string, displayName: row['claimed_account_display_name'] as string | null },
      resourceName: (row['claimed_resource_name'] as string | null) ?? null,
    };
  }

  async setDeliveryRef(accountId: AccountId, id: string, ref: ApprovalDeliveryRef): Promise<void> {
    await this.repo().update({ accountId, id }, { deliveryRef: ref });
  }

  /** For tests and tools: the statuses of a request's approval. */
  async statusOf(accountId: AccountId, id: string): Promise<ApprovalStatus | null> {
    return (await this.findById(accountId, id))?.status ?? null;
  }
}
