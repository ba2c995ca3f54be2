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
import { journalDetails, journalFacts } from '@twofold/journal';
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

  private async issue(
    accountId: AccountId,
    user: UserEntity,
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
