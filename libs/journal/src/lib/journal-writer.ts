import { Db, JournalRepository } from '@twofold/persistence';
import { AccountId, Clock } from '@twofold/domain';
import { JournalAction, JournalFields, JournalObject, isJournalEvent } from './journal-events';

export interface JournalEntry<O extends JournalObject = JournalObject> {
  object: O;
  action: JournalAction<O>;
  /** the initiator's login: API key, administrator identity, or `cli` */
  subject: string;
  success: boolean;
  additionalFields?: JournalFields;
}

/**
 * Writes through the current transaction when there is one, so an event commits or rolls back with
 * the change it describes. Details must never carry secrets: callers pass identifiers, not keys.
 */
export class JournalWriter {
  private readonly events: JournalRepository;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.events = new JournalRepository(db);
  }

  async record<O extends JournalObject>(accountId: AccountId, entry: JournalEntry<O>): Promise<void> {
    if (!isJournalEvent(entry.object, entry.action)) {
      throw new Error(`Not a journal event: ${entry.object} ${String(entry.action)}`);
    }
    await this.events.insert(accountId, {
      eventDate: this.clock.now(),
      object: entry.object,
      action: entry.action,
      subject: entry.subject,
      success: entry.success,
      additionalFields: entry.additionalFields ?? {},
    });
  }
}
