import { DayRange, Page, parsePastDay, ValidationFailed } from '@twofold/domain';
import { InputContext, QueryParameters } from '../http/parsed-input';

/** GET /journal: one past UTC day, filtered, paged; parameter names in any case. */
export interface JournalQuery {
  day: DayRange;
  page: Page;
  /** each filter may be repeated (`action=A&action=B`); empty: no filter */
  actions: string[];
  objects: string[];
  successes: boolean[];
  subject: string | undefined;
}

function parseSuccess(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ValidationFailed('success must be true or false.');
}

/** `eventDate` must be a past day: the call's now decides which. */
export function parseJournalQuery(query: QueryParameters, { now }: Pick<InputContext, 'now'>): JournalQuery {
  const day = parsePastDay('eventDate', query.get('eventDate'), now);
  const page = query.page();
  return {
    day,
    page,
    actions: query.all('action'),
    objects: query.all('object'),
    successes: query.all('success').map(parseSuccess),
    subject: query.single('subject'),
  };
}
