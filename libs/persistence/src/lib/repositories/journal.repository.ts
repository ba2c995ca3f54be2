import { Db } from '../transaction-context';
import { JournalEventEntity } from '../entities';
import { AccountId, DayRange, Page } from '@twofold/domain';
import { dayPageAndTotal } from './day-page';

export interface JournalSearch {
  /** one past UTC day */
  day: DayRange;
  /** the day gets no new events (`isSettledDay`): its totals are remembered */
  settled: boolean;
  actions?: string[];
  objects?: string[];
  successes?: boolean[];
  subject?: string;
}

/** What the journal page shows of an event. */
export type JournalEventRow = Pick<
  JournalEventEntity,
  'id' | 'eventDate' | 'object' | 'action' | 'subject' | 'success' | 'additionalFields'
>;

export class JournalRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(JournalEventEntity);
  }

  /**
   * One statement, written by hand: every journaled call makes it, and TypeORM's `save` (entity
   * metadata, a RETURNING of the generated columns nobody reads) showed in the profile of POST /users.
   */
  async insert(accountId: AccountId, event: Omit<JournalEventEntity, 'id' | 'accountId' | 'seq'>): Promise<void> {
    await this.db.manager().query(
      `INSERT INTO journal_events (account_id, event_date, object, action, subject, success, additional_fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
      [accountId, event.eventDate, event.object, event.action, event.subject, event.success, JSON.stringify(event.additionalFields)],
    );
  }

  /** One page of a day's events, oldest first, and the day's total (remembered once the day is settled). */
  async search(accountId: AccountId, search: JournalSearch, page: Page): Promise<[JournalEventRow[], number]> {
    const anyOf = (values: readonly unknown[] | undefined) => (values?.length ? values : null);
    return dayPageAndTotal<JournalEventRow>(
      this.db.manager(),
      {
        list: 'journal',
        filterArgs: [
          accountId,
          search.day.from,
          search.day.to,
          anyOf(search.actions),
          anyOf(search.objects),
          anyOf(search.successes),
          search.subject ?? null,
        ],
        limit: page.limit,
        offset: page.offset,
      },
      search.settled ? { day: search.day.day, filter: journalFilterKey(search) } : undefined,
    );
  }
}

/** The same filter in one spelling whatever the order or repetition of its values. */
function journalFilterKey(search: JournalSearch): string {
  const canonical = <T>(values: T[] | undefined) => [...new Set((values ?? []).map(String))].sort();
  return JSON.stringify({
    actions: canonical(search.actions),
    objects: canonical(search.objects),
    successes: canonical(search.successes),
    subject: search.subject ?? null,
  });
}
