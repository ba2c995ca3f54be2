import { Injectable } from '@nestjs/common';
import {
  AccountId,
  formatIdentity,
  IdentityFormat,
  IdentityFormatPlan,
  IdentityOwner,
  MAX_CUSTOM_FIELDS_PER_USER,
  NotFound,
  planIdentityFormat,
  ValidationFailed,
} from '@twofold/domain';
import { journalDetails } from '@twofold/journal';
import {
  AccountsRepository,
  AuthenticatorFold,
  Db,
  IdentityMove,
  MergeableAuthenticator,
  MergeableUser,
  MergeStep,
  SecretCipher,
  UserMergesRepository,
} from '@twofold/persistence';
import { ApplyProgress, ApplyProgressRegistry, ApplyProgressView } from './identity-format-progress';
import { IdentityFormatApplyDto, IdentityFormatConflictDto, IdentityFormatDryRunDto, IdentityFormatDto } from './settings.dto';

/** Renames, merges and refusals a dry run lists at most (its counts are whole). */
export const DRY_RUN_LIST_LIMIT = 200;

/**
 * The account's identity format: read, set, and applied to the users stored before it.
 * Identities received are normalized at the edge by the format the caller's principal carries
 * (the InputContext of `@Input`); setting the format announces a credentials change, so every API instance
 * reads the new one with the account's and its resources' credentials at their next call.
 */
@Injectable()
export class IdentityFormatService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly merges: UserMergesRepository,
    private readonly cipher: SecretCipher,
    private readonly progressRegistry: ApplyProgressRegistry,
    private readonly db: Db,
  ) {}

  async identityFormat(accountId: AccountId): Promise<IdentityFormatDto> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new NotFound('Account');
    return { format: account.identityFormat };
  }

  /** Journaled with the format before and after; setting the same format again is no change, and still answers 200. */
  async setIdentityFormat(accountId: AccountId, format: IdentityFormat): Promise<IdentityFormatDto> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new NotFound('Account');
    journalDetails.add({ PreviousIdentityFormat: account.identityFormat, IdentityFormat: format });
    if (account.identityFormat !== format) await this.accounts.setIdentityFormat(accountId, format);
    return { format };
  }

  /**
   * Renames the account's users to its format and merges those whose identities become one into the
   * oldest (planIdentityFormat), in the caller's transaction: all of it or nothing. Locks first the
   * account row (no user is created meanwhile), then the access requests it rewrites, then every user
   * of the account in id order (the order the access page and code checks take), and plans again from
   * the locked rows.
   */
  async apply(accountId: AccountId, progressId: string | null = null): Promise<IdentityFormatApplyDto> {
    const progress = progressId === null ? null : this.progressOf(accountId, progressId);
    const format = await this.merges.lockAccount(accountId);
    await this.renameAwaitingRequests(accountId, format);
    const first = planIdentityFormat(format, await this.merges.users(accountId));
    const touched = [...first.renamed.map((r) => r.user.id), ...first.merged.flatMap((m) => [m.into.id, ...m.from.map((u) => u.id)])];
    if (touched.length > 0) await this.merges.lockRequestsOf(accountId, touched);
    const users = await this.merges.lockUsers(accountId);
    const { plan, steps, conflicts } = await this.planOf(accountId, format, users);
    if (conflicts.length > 0) {
      const [{ into, customFields }] = conflicts;
      throw new ValidationFailed(
        `The users merged into "${into}" would have ${customFields} custom fields; a user can have at most ${MAX_CUSTOM_FIELDS_PER_USER}. Remove some first; nothing was changed.`,
      );
    }
    const byId = new Map(users.map((user) => [user.id, user]));
    const survivorCount = new Set([...plan.renamed.map(({ user }) => user.id), ...plan.merged.map((merge) => merge.into.id)]).size;
    progress?.planned(2 * steps.length + survivorCount);
    const advance = (users: number) => progress?.advance(users);

    await this.foldSharedSecrets(accountId, plan);
    await this.merges.moveUserRows(accountId, steps, advance);
    await this.merges.moveAccessRequests(accountId, identityMoves(plan));
    await this.merges.deleteUsers(
      accountId,
      steps.map((step) => step.merged),
      advance,
    );
    // after the deletions: a survivor's new identity may be a merged user's old one
    const survivors = new Map<string, MergeableUser>();
    for (const { user, to } of plan.renamed) survivors.set(user.id, { ...(byId.get(user.id) as MergeableUser), identity: to });
    for (const merge of plan.merged) {
      const survivor = survivors.get(merge.into.id) ?? (byId.get(merge.into.id) as MergeableUser);
      survivors.set(
        merge.into.id,
        mergedUser(
          survivor,
          merge.from.map((user) => byId.get(user.id) as MergeableUser),
        ),
      );
    }
    await this.merges.updateUsers(accountId, [...survivors.values()], advance);

    const merged = steps.length;
    journalDetails.add({ IdentityFormat: format, Renamed: String(plan.renamed.length), Merged: String(merged) });
    return {
      renamed: plan.renamed.map(({ user, to }) => ({ from: user.identity, to })),
      merged: plan.merged.map((merge) => ({ into: merge.identity, from: merge.from.map((user) => user.identity) })),
    };
  }

  /** An apply's progress by the id its caller chose, readable while it runs and for a while after (ApplyProgressRegistry). */
  progress(accountId: AccountId, progressId: string): ApplyProgressView {
    const view = this.progressRegistry.read(accountId, progressId);
    if (!view) throw new NotFound('Apply');
    return view;
  }

  /** `done` only once the transaction has committed: before, a rollback could still undo every row counted. */
  private progressOf(accountId: AccountId, progressId: string): ApplyProgress | null {
    const progress = this.progressRegistry.begin(accountId, progressId);
    if (progress) {
      this.db.afterCommit(() => progress.finished());
      this.db.afterRollback(async () => progress.failed());
    }
    return progress;
  }

  /**
   * What the apply would do now, changing nothing: the same plan (planOf) of the same users under the
   * account's format (or `format`, to see a format's effect before setting it), with the merges the
   * apply would refuse. Read without locks: an apply started later plans again from its locked rows.
   * The lists are cut at `listLimit`; the counts are whole.
   */
  async dryRun(accountId: AccountId, format: IdentityFormat | null, listLimit = DRY_RUN_LIST_LIMIT): Promise<IdentityFormatDryRunDto> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new NotFound('Account');
    const applied = format ?? account.identityFormat;
    const users = await this.merges.users(accountId);
    const { plan, steps, conflicts } = await this.planOf(accountId, applied, users);
    return {
      format: applied,
      users: users.length,
      renamedCount: plan.renamed.length,
      mergedCount: steps.length,
      renamed: plan.renamed.slice(0, listLimit).map(({ user, to }) => ({ from: user.identity, to })),
      merged: plan.merged.slice(0, listLimit).map((merge) => ({ into: merge.identity, from: merge.from.map((user) => user.identity) })),
      conflicts: conflicts.slice(0, listLimit),
    };
  }

  /**
   * The plan of an apply, the merge steps it takes, and the merges that would give a user more custom
   * fields than a user may have (the apply refuses them as a whole: dropping some silently would lose
   * data). The apply and its dry run both plan here, so they cannot disagree.
   */
  private async planOf(
    accountId: AccountId,
    format: IdentityFormat,
    users: readonly IdentityOwner[],
  ): Promise<{ plan: IdentityFormatPlan; steps: MergeStep[]; conflicts: IdentityFormatConflictDto[] }> {
    const plan = planIdentityFormat(format, users);
    const steps: MergeStep[] = plan.merged.flatMap((merge) =>
      merge.from.map((user, index) => ({ merged: user.id, survivor: merge.into.id, rank: index + 1 })),
    );
    const conflicts: IdentityFormatConflictDto[] = [];
    if (steps.length > 0) {
      const counts = await this.merges.customFieldCounts(accountId, steps);
      for (const merge of plan.merged) {
        const count = counts.get(merge.into.id) ?? 0;
        if (count > MAX_CUSTOM_FIELDS_PER_USER) conflicts.push({ into: merge.identity, customFields: count });
      }
    }
    return { plan, steps, conflicts };
  }

  /**
   * A request created before the format, whose page has not found its user yet, would register the
   * old spelling at its first visit: it takes the format too. (Its identity is what it was received
   * as, so formatting it is what normalizing it on arrival would have done.)
   */
  private async renameAwaitingRequests(accountId: AccountId, format: IdentityFormat): Promise<void> {
    if (format === 'AsIs') return;
    const renames: { id: string; identity: string }[] = [];
    for (const request of await this.merges.awaitingWithoutUser(accountId)) {
      const identity = formatIdentity(format, request.identity);
      if (identity !== null && identity !== request.identity) renames.push({ id: request.id, identity });
    }
    await this.merges.renameRequests(accountId, renames);
  }

  /**
   * One secret held by two of the merged users (the same hardware token registered for `CORP\jane`
   * and for `jane`, or a copied token) would be two authenticators of one user, each with its own
   * replay state: a code spent on one would be accepted again by the other. They become one, with the
   * latest spent TOTP step and HOTP counter of all of them. One read and two writes for the whole apply.
   */
  private async foldSharedSecrets(accountId: AccountId, plan: IdentityFormatPlan): Promise<void> {
    if (plan.merged.length === 0) return;
    const survivorOf = new Map<string, string>();
    for (const merge of plan.merged) for (const user of [merge.into, ...merge.from]) survivorOf.set(user.id, merge.into.id);
    const bySecret = new Map<string, MergeableAuthenticator[]>();
    for (const authenticator of await this.merges.authenticatorsOf(accountId, [...survivorOf.keys()])) {
      const key = `${survivorOf.get(authenticator.userId)}:${this.secretKeyOf(authenticator)}`;
      bySecret.set(key, [...(bySecret.get(key) ?? []), authenticator]);
    }
    const folds: AuthenticatorFold[] = [];
    for (const same of bySecret.values()) {
      if (new Set(same.map((a) => a.userId)).size < 2) continue;
      const survivor = survivorOf.get(same[0].userId);
      const kept = same.find((a) => a.userId === survivor) ?? same[0];
      folds.push({
        kept: kept.id,
        lastTimeStep: latest(same.map((a) => a.lastTimeStep)),
        hotpCounter: latest(same.map((a) => a.hotpCounter)),
        disabled: same.some((a) => a.disabled),
        dropped: same.filter((a) => a !== kept).map((a) => a.id),
      });
    }
    await this.merges.foldAuthenticators(accountId, folds);
  }

  /** TOTP kinds share their time steps (an app and a token of one secret give the same codes); HOTP counts apart. */
  private secretKeyOf(authenticator: MergeableAuthenticator): string {
    const secret = this.cipher.decrypt('authenticator.secret', authenticator.secretEnc as Buffer).toString('hex');
    const family = authenticator.kind === 'HotpToken' ? 'hotp' : 'totp';
    return `${family}:${(authenticator.algorithm ?? 'SHA1').toUpperCase()}:${secret}`;
  }
}

/** The survivor after its merge: the oldest wins a field both have, a field only a younger one has is taken, locked if any was. */
function mergedUser(survivor: MergeableUser, merged: readonly MergeableUser[]): MergeableUser {
  const all = [survivor, ...merged];
  const lastLogins = all.map((user) => user.lastLogin?.getTime() ?? null).filter((time): time is number => time !== null);
  return {
    ...survivor,
    name: all.find((user) => user.name !== null)?.name ?? null,
    email: all.find((user) => user.email !== null)?.email ?? null,
    isLocked: all.some((user) => user.isLocked),
    lastLogin: lastLogins.length > 0 ? new Date(Math.max(...lastLogins)) : null,
  };
}

/** Every renamed or merged user's requests go to its survivor under the new identity. */
function identityMoves(plan: IdentityFormatPlan): IdentityMove[] {
  return [
    ...plan.renamed.map(({ user, to }) => ({ userId: user.id, survivor: user.id, toIdentity: to })),
    ...plan.merged.flatMap((merge) => merge.from.map((user) => ({ userId: user.id, survivor: merge.into.id, toIdentity: merge.identity }))),
  ];
}

/** The larger of bigint counters written as text; null when none is set. */
function latest(values: readonly (string | null)[]): string | null {
  return values.reduce<string | null>(
    (max, value) => (value !== null && (max === null || BigInt(value) > BigInt(max)) ? value : max),
    null,
  );
}
