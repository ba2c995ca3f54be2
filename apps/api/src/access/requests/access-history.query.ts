import { DayRange, IdentityFormat, normalizeIdentity, Page, parsePastDay } from '@twofold/domain';
import { QueryParameters } from '../../http/parsed-input';

/** GET /access/requests: one past UTC day of the account, paged; names in any case. */
export interface AccessHistoryQuery {
  day: DayRange;
  page: Page;
  identity: string | undefined;
}

/** `identity` is normalized by the account's identity format, as the identities the requests were recorded with. */
export function parseAccessHistoryQuery(query: QueryParameters, now: Date, format: IdentityFormat): AccessHistoryQuery {
  const day = parsePastDay('createdAt', query.get('createdAt'), now);
  const page = query.page();
  const identity = query.single('identity') || undefined;
  return { day, page, identity: identity === undefined ? undefined : normalizeIdentity(format, identity, 'identity') };
}
