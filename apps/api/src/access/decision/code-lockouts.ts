import { Injectable } from '@nestjs/common';
import { AccountId, CodeLockoutScope, lockedUntilOf, streakAfterWrongCode } from '@twofold/domain';
import { journalFacts, JournalWriter } from '@twofold/journal';
import { ResourcesRepository, WrongCodeScopeKey, WrongCodeStreakRow, WrongCodeStreaksRepository } from '@twofold/persistence';
import { addressNetworkOf } from '../../http/client-address';
import { AppMetrics, OtpChannel } from '../../metrics/app-metrics';

/**
 * Where a code comes from: the user's address (on the page the visitor's, behind TRUSTED_PROXIES; on
 * the `ra` family the `ip` or `callingStationId` the client sent; null when unknown, which is one
 * address of its own) and the resource whose request it answers.
 */
export interface CodeOrigin {
  address: string | null;
  resourceId: string;
  channel: OtpChannel;
}

/** The scopes of one code attempt, with their streaks as read before the code is checked. */
export interface CodeAttemptStreaks {
  keys: readonly WrongCodeScopeKey[];
  rows: readonly WrongCodeStreakRow[];
}

/** A lockout that refuses this attempt: the scope that is locked, and until when. */
export interface CodeLockoutInForce {
  scope: CodeLockoutScope;
  until: Date;
}

/** The address scope's key of an unknown address: all such attempts of a user share one streak. */
const UNKNOWN_ADDRESS = 'unknown';

export function codeScopeKeys(origin: CodeOrigin): WrongCodeScopeKey[] {
  return [
    { scope: 'address', scopeKey: origin.address === null ? UNKNOWN_ADDRESS : addressNetworkOf(origin.address) },
    { scope: 'resource', scopeKey: origin.resourceId },
  ];
}

/** The longest lockout in force among the attempt's scopes, or null when the code may be checked. */
export function lockoutInForce(streaks: CodeAttemptStreaks, now: Date): CodeLockoutInForce | null {
  let found: CodeLockoutInForce | null = null;
  for (const row of streaks.rows) {
    const until = lockedUntilOf(row, now);
    if (until && (!found || until > found.until)) found = { scope: row.scope, until };
  }
  return found;
}

/**
 * Code lockouts per user and address network and per user and resource (libs/domain code-lockouts.ts).
 * Callers hold the user's row lock, so one user's attempts are counted one at a time whatever the
 * number of API processes.
 */
@Injectable()
export class CodeLockouts {
  constructor(
    private readonly streaks: WrongCodeStreaksRepository,
    private readonly resources: ResourcesRepository,
    private readonly journal: JournalWriter,
    private readonly metrics: AppMetrics,
  ) {}

  async streaksOf(accountId: AccountId, userId: string, origin: CodeOrigin): Promise<CodeAttemptStreaks> {
    const keys = codeScopeKeys(origin);
    return { keys, rows: await this.streaks.of(accountId, userId, keys) };
  }

  /**
   * One more wrong code in each scope of the attempt. A scope it locks is journaled (`User Update`,
   * success false, the reason and the scope in additionalFields; never the code) and counted.
   */
  async countWrongCode(
    accountId: AccountId,
    user: { id: string; identity: string },
    origin: CodeOrigin,
    streaks: CodeAttemptStreaks,
    now: Date,
  ): Promise<void> {
    const updated: WrongCodeStreakRow[] = [];
    const lockedOut: WrongCodeStreakRow[] = [];
    for (const key of streaks.keys) {
      const before = streaks.rows.find((row) => row.scope === key.scope && row.scopeKey === key.scopeKey) ?? null;
      const next = streakAfterWrongCode(key.scope, before, now);
      const row = { ...key, ...next.streak };
      updated.push(row);
      if (next.lockedOut) lockedOut.push(row);
    }
    await this.streaks.save(accountId, user.id, updated);
    for (const row of lockedOut) {
      this.metrics.lockout(origin.channel, row.scope);
      await this.journal.record(accountId, {
        object: 'User',
        action: 'Update',
        subject: user.identity,
        success: false,
        additionalFields: {
          ...journalFacts.user(user),
          Reason: 'Too many wrong codes',
          LockoutScope: row.scope,
          ...(row.scope === 'address' ? { UserIp: row.scopeKey } : await this.resourceFacts(accountId, row.scopeKey)),
          WrongCodes: String(row.failures),
          LockedUntil: (row.lockedUntil as Date).toISOString(),
          Channel: origin.channel,
        },
      });
    }
  }

  /** A granted code: the attempt's scopes start again from zero (a write only when they had wrong codes). */
  async forgetOnGrant(accountId: AccountId, userId: string, streaks: CodeAttemptStreaks, now: Date): Promise<void> {
    if (streaks.rows.length > 0) await this.streaks.clear(accountId, userId, now, streaks.rows);
  }

  private async resourceFacts(accountId: AccountId, resourceId: string) {
    const resource = await this.resources.findById(accountId, resourceId);
    return { ResourceId: resourceId, ...(resource ? { ResourceName: resource.name } : {}) };
  }
}
