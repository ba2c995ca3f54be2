import { Injectable } from '@nestjs/common';
import { RECOVERY_CODES_LOW } from '@twofold/domain';
import { StandbyCodesRepository } from '@twofold/persistence';
import { findStandbyCode } from '../../standby-codes/standby-code-secrets';
import { StandbyCodeJournal } from '../../standby-codes/standby-code.journal';
import { FactorCheck, FactorCheckContext, FactorCheckResult } from './sign-in';

/**
 * The `standbyCode` factor: a recovery code or a helpdesk bypass code, checked against the user's
 * stored codes and spent by a conditional UPDATE, so a code of one use grants once however many
 * attempts (in any API process) send it at once. A spent or expired code sent again is a replay, not
 * a guess. Each use is journaled with the grant, in its transaction.
 */
@Injectable()
export class StandbyCodeFactorCheck implements FactorCheck {
  constructor(
    private readonly codes: StandbyCodesRepository,
    private readonly journal: StandbyCodeJournal,
  ) {}

  async check({ accountId, found, answer, now, origin }: FactorCheckContext): Promise<FactorCheckResult> {
    if (answer.kind !== 'code') return { result: 'wrong' };
    const { user } = found;
    const row = findStandbyCode(await this.codes.all(accountId, user.id), answer.code);
    if (!row) return { result: 'wrong' };
    const usesLeft = await this.codes.spend(accountId, row.id, now);
    if (usesLeft === null) return { result: 'replayed' };
    const codesLeft = (await this.codes.countLive(accountId, user.id, now))[row.kind];
    await this.journal.recordUse(accountId, {
      kind: row.kind,
      userId: user.id,
      identity: user.identity,
      address: origin.address,
      resourceId: origin.resourceId,
      channel: origin.channel,
      usesLeft,
      codesLeft,
    });
    const lowOnRecoveryCodes = row.kind === 'RecoveryCode' && codesLeft <= RECOVERY_CODES_LOW;
    return { result: 'granted', factor: { kind: row.kind, id: row.id, name: null, ...(lowOnRecoveryCodes ? { codesLeft } : {}) } };
  }
}
