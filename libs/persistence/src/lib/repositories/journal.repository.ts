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
    const params: unknown[] = [accountId, search.day.from, search.day.to];
    const anyOf = (column: string, values: readonly unknown[] | undefined) =>
      values?.length ? ` AND ${column} IN (${values.map((value) => `$${params.push(value)}`).join(', ')})` : '';
    const fromWhere =
      `FROM journal_events WHERE account_id = $1 AND event_date >= $2 AND event_date < $3` +
      anyOf('action', search.actions) +
      anyOf('object', search.objects) +
      anyOf('success', search.successes) +
      (search.subject !== undefined ? ` AND subject = $${params.push(search.subject)}` : '');
    return dayPageAndTotal<JournalEventRow>(
      this.db.manager(),
      {
        fromWhere,
        filterParams: params,
        columns: 'id, event_date AS "eventDate", object, action, subject, success, additional_fields AS "additionalFields"',
        orderBy: 'event_date, seq',
        limit: page.limit,
        offset: page.offset,
      },
      search.settled ? { list: 'journal', day: search.day.day, filter: journalFilterKey(search) } : undefined,
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
