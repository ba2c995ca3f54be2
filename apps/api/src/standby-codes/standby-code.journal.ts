import { Injectable } from '@nestjs/common';
import { AccountId, StandbyCodeKind } from '@twofold/domain';
import { JournalField, JournalWriter } from '@twofold/journal';
import { AccessRequestChannel, ResourcesRepository } from '@twofold/persistence';

/** What a sign-in with a recovery or bypass code journals: who, through which resource, from where; never the code. */
export interface StandbyCodeUse {
  kind: StandbyCodeKind;
  userId: string;
  identity: string;
  address: string | null;
  resourceId: string;
  channel: AccessRequestChannel;
  /** uses the code has left, and the user's unspent codes of its kind */
  usesLeft: number;
  codesLeft: number;
}

/**
 * `BypassCode Use` and `RecoveryCode Use`, written in the grant's transaction: a code an
 * administrator handed out, or the user's last resort, is worth an event of its own. The subject is
 * the user's identity: the user is the one acting.
 */
@Injectable()
export class StandbyCodeJournal {
  constructor(
    private readonly journal: JournalWriter,
    private readonly resources: ResourcesRepository,
  ) {}

  async recordUse(accountId: AccountId, use: StandbyCodeUse): Promise<void> {
    const resource = await this.resources.findById(accountId, use.resourceId);
    await this.journal.record(accountId, {
      object: use.kind,
      action: 'Use',
      subject: use.identity,
      success: true,
      additionalFields: {
        UserId: use.userId,
        [JournalField.userIdentity]: use.identity,
        ...(use.address ? { [JournalField.userIp]: use.address } : {}),
        Resource: resource?.name ?? use.resourceId,
        ResourceId: use.resourceId,
        Channel: use.channel,
        UsesLeft: String(use.usesLeft),
        CodesLeft: String(use.codesLeft),
      },
    });
  }
}
