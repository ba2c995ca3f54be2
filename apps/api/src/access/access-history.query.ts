import { DayRange, Page, parsePastDay } from '@twofold/domain';
import { QueryParameters } from '../http/parsed-input';

/** GET /access/requests (SPEC.md "History"): one past UTC day of the account, paged; names in any case. */
export interface AccessHistoryQuery {
  day: DayRange;
  page: Page;
  identity: string | undefined;
}

export function parseAccessHistoryQuery(query: QueryParameters, now: Date): AccessHistoryQuery {
  const day = parsePastDay('createdAt', query.get('createdAt'), now);
  const page = query.page();
  return { day, page, identity: query.single('identity') || undefined };
}
