import { Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  Clock,
  CreateBypassCodesCommand,
  displayStandbyCode,
  NotFound,
  RECOVERY_CODE_COUNT,
  RecordId,
  StandbyCodeKind,
} from '@twofold/domain';
import { JournalField, journalDetails, journalFacts, JournalWriter } from '@twofold/journal';
import { StandbyCodesRepository, UserEntity, UsersRepository } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { generateStandbyCode, sealStandbyCode } from './standby-code-secrets';
import { BypassCodesDto, RecoveryCodesDto } from './standby-codes.dto';

/**
 * Hands out standby codes: shown once in the answer, stored only as salted hashes
 * (standby-code-secrets.ts). The journal event names the user and the limits, never a code.
 */
@Injectable()
export class StandbyCodesService {
  constructor(
    private readonly users: UsersRepository,
    private readonly codes: StandbyCodesRepository,
    private readonly journal: JournalWriter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Helpdesk bypass codes, added to any the user has: each good for `uses` sign-ins within `ttlMinutes`. */
  async createBypassCodes(
    accountId: AccountId,
    userId: RecordId,
    command: CreateBypassCodesCommand,
    createdBy: string,
  ): Promise<BypassCodesDto> {
    const user = await this.lockUser(accountId, userId);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + command.ttlMinutes * 60_000);
    const codes = await this.issue(accountId, user, 'BypassCode', command.count, command.uses, expiresAt, createdBy, now);
    journalDetails.add({ CodeCount: String(command.count), CodeUses: String(command.uses), CodeTtlMinutes: String(command.ttlMinutes) });
    return { codes, uses: command.uses, expiresAt: expiresAt.toISOString() };
  }

  /** Ten new single-use recovery codes; the user's earlier ones stop working. */
  async regenerateRecoveryCodes(accountId: AccountId, userId: RecordId, createdBy: string): Promise<RecoveryCodesDto> {
    const user = await this.lockUser(accountId, userId);
    const now = this.clock.now();
    await this.codes.deleteKind(accountId, user.id, 'RecoveryCode');
    const codes = await this.issue(accountId, user, 'RecoveryCode', RECOVERY_CODE_COUNT, 1, null, createdBy, now);
    journalDetails.add({ CodeCount: String(RECOVERY_CODE_COUNT) });
    return { codes };
  }

  /**
   * Ten new recovery codes the user made for themself (a page: "my factors", or with their first
   * authenticator on the enrollment link), journaled as `RecoveryCode Create` with the page as
   * `Source`, never the codes. The caller holds the user's row lock. `onlyIfNone`: nothing is made
   * for a user who still has unspent ones (an enrollment must not void codes the user kept).
   */
  async recoveryCodesForUser(
    accountId: AccountId,
    user: { id: string; identity: string },
    source: 'self-service' | 'enrollment',
    options: { onlyIfNone?: boolean } = {},
  ): Promise<string[] | null> {
    const now = this.clock.now();
    if (options.onlyIfNone && (await this.codes.countLive(accountId, user.id, now)).RecoveryCode > 0) return null;
    await this.codes.deleteKind(accountId, user.id, 'RecoveryCode');
    const codes = await this.issue(accountId, user, 'RecoveryCode', RECOVERY_CODE_COUNT, 1, null, user.identity, now);
    await this.journal.record(accountId, {
      object: 'RecoveryCode',
      action: 'Create',
      subject: user.identity,
      success: true,
      additionalFields: {
        UserId: user.id,
        [JournalField.userIdentity]: user.identity,
        CodeCount: String(RECOVERY_CODE_COUNT),
        Source: source,
      },
    });
    return codes;
  }

  private async issue(
    accountId: AccountId,
    user: { id: string },
    kind: StandbyCodeKind,
    count: number,
    uses: number,
    expiresAt: Date | null,
    createdBy: string,
    now: Date,
  ): Promise<string[]> {
    const plain = Array.from({ length: count }, generateStandbyCode);
    await this.codes.insert(
      accountId,
      user.id,
      kind,
      plain.map((code) => sealStandbyCode(code, uses, expiresAt)),
      createdBy,
      now,
    );
    return plain.map(displayStandbyCode);
  }

  /** The user under its row lock: codes are handed out and spent one at a time per user. */
  private async lockUser(accountId: AccountId, id: RecordId): Promise<UserEntity> {
    journalDetails.add({ UserId: id });
    const user = await this.users.findByIdForUpdate(accountId, id);
    if (!user) throw new NotFound('User');
    journalDetails.add(journalFacts.user(user));
    return user;
  }
}
