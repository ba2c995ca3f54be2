import { Db } from '../transaction-context';
import { JournalEventEntity } from '../entities';
import { Page } from '@twofold/domain';

export interface JournalSearch {
  from: Date;
  to: Date;
  actions?: string[];
  objects?: string[];
  successes?: boolean[];
  subject?: string;
}

export class JournalRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(JournalEventEntity);
  }

  async insert(accountId: string, event: Omit<JournalEventEntity, 'id' | 'accountId' | 'seq'>): Promise<JournalEventEntity> {
    return this.repo().save(this.repo().create({ ...event, accountId }));
  }

  async search(accountId: string, search: JournalSearch, page: Page): Promise<[JournalEventEntity[], number]> {
    const query = this.repo()
      .createQueryBuilder('e')
      .where('e.account_id = :accountId', { accountId })
      .andWhere('e.event_date >= :from AND e.event_date < :to', { from: search.from, to: search.to });
    if (search.actions?.length) query.andWhere('e.action IN (:...actions)', { actions: search.actions });
    if (search.objects?.length) query.andWhere('e.object IN (:...objects)', { objects: search.objects });
    if (search.successes?.length) query.andWhere('e.success IN (:...successes)', { successes: search.successes });
    if (search.subject !== undefined) query.andWhere('e.subject = :subject', { subject: search.subject });
    return query.orderBy('e.event_date', 'ASC').addOrderBy('e.seq', 'ASC').skip(page.offset).take(page.limit).getManyAndCount();
  }
}
