import { Injectable } from '@nestjs/common';
import { AccountId } from '@twofold/domain';
import { JournalField, JournalWriter } from '@twofold/journal';
import { AccessRequestChannel, ResourcesRepository } from '@twofold/persistence';

/** What a bypass journals: who, from where, to what, and which lists let them in. */
export interface BypassFacts {
  identity: string;
  userIp: string;
  resourceId: string;
  /** names of the Bypass lists that matched */
  lists: readonly string[];
  requestId: string;
  channel: AccessRequestChannel;
}

/**
 * `AccessRequest Bypass` (a journal constant of the API): an access request granted without a
 * code because the user's address is on a Bypass list, with `UserIp`, `Resource` and `IpList` (names),
 * written in the grant's transaction. The subject is the user's identity: the user is the one acting.
 */
@Injectable()
export class BypassJournal {
  constructor(
    private readonly journal: JournalWriter,
    private readonly resources: ResourcesRepository,
  ) {}

  async record(accountId: AccountId, facts: BypassFacts): Promise<void> {
    const resource = await this.resources.findById(accountId, facts.resourceId);
    await this.journal.record(accountId, {
      object: 'AccessRequest',
      action: 'Bypass',
      subject: facts.identity,
      success: true,
      additionalFields: {
        [JournalField.userIp]: facts.userIp,
        [JournalField.userIdentity]: facts.identity,
        Resource: resource?.name ?? facts.resourceId,
        ResourceId: facts.resourceId,
        IpList: facts.lists.join(', '),
        AccessRequestId: facts.requestId,
        Channel: facts.channel,
      },
    });
  }
}
