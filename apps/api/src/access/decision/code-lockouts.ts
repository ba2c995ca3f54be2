import { Injectable } from '@nestjs/common';
import {
  AccountId,
  AddressWitness,
  addressOfScopeKey,
  addressScopeKey,
  CodeLockoutScope,
  lockedUntilOf,
  streakAfterWrongCode,
} from '@twofold/domain';
import { journalFacts, JournalWriter } from '@twofold/journal';
import { ResourcesRepository, WrongCodeScopeKey, WrongCodeStreakRow, WrongCodeStreaksRepository } from '@twofold/persistence';
import { addressNetworkOf } from '../../http/client-address';
import { AppMetrics, OtpChannel } from '../../metrics/app-metrics';

/**
 * Where a code comes from: the user's address (on the page the visitor's, behind TRUSTED_PROXIES; on
 * the `ra` family the `ip` or `callingStationId` the client sent; null when unknown) and the resource
 * whose request it answers.
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

/**
 * The scopes an attempt counts in (libs/domain code-lockouts.ts): the resource's, and the address's
 * when one is known — the page's visitor for every page, an address a resource named for that resource
 * only.
 */
export function codeScopeKeys(origin: CodeOrigin): WrongCodeScopeKey[] {
  const resource: WrongCodeScopeKey = { scope: 'resource', scopeKey: origin.resourceId };
  if (origin.address === null) return [resource];
  const witness: AddressWitness = origin.channel === 'page' ? { kind: 'page' } : { kind: 'resource', resourceId: origin.resourceId };
  return [{ scope: 'address', scopeKey: addressScopeKey(addressNetworkOf(origin.address), witness) }, resource];
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
          ...(await this.scopeFacts(accountId, row)),
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

  /** The address (and, for one a resource named, that resource) or the resource of a scope that locked. */
  private async scopeFacts(accountId: AccountId, row: WrongCodeStreakRow) {
    if (row.scope === 'resource') return this.resourceFacts(accountId, row.scopeKey);
    const { network, resourceId } = addressOfScopeKey(row.scopeKey);
    return { UserIp: network, ...(resourceId ? await this.resourceFacts(accountId, resourceId) : {}) };
  }

  private async resourceFacts(accountId: AccountId, resourceId: string) {
    const resource = await this.resources.findById(accountId, resourceId);
    return { ResourceId: resourceId, ...(resource ? { ResourceName: resource.name } : {}) };
  }
}
