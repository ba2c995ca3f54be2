import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock, isSettledDay, parsePage, parsePastDay, ValidationFailed } from '@twofold/domain';
import { JournalRepository } from '@twofold/persistence';
import { CLOCK } from '../app/tokens';
import { lowerCaseKeys, singleQueryValue } from '../http/case-insensitive-keys';
import { pagedModel } from '../http/envelope';
import { JournalEventDto, toJournalEventDto } from './journal.dto';

export interface JournalPage {
  success: true;
  message: null;
  data: JournalEventDto[];
  offset: number;
  limit: number;
  totalElements: number;
}

/** A repeatable parameter: absent, one value, or repeated (`action=A&action=B`). */
function repeated(raw: unknown): string[] {
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : [raw]).map(String);
}

function parseSuccess(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ValidationFailed('success must be true or false.');
}

@Injectable()
export class JournalService {
  constructor(
    private readonly events: JournalRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** GET /journal: one past UTC day of the caller's account, filtered, paged (SPEC.md "Journal"). */
  async search(accountId: AccountId, rawQuery: Record<string, unknown>): Promise<{ model: JournalPage }> {
    const query = lowerCaseKeys(rawQuery);
    const now = this.clock.now();
    const day = parsePastDay('eventDate', query['eventdate'], now);
    const page = parsePage(query['offset'], query['limit']);
    const [events, totalElements] = await this.events.search(
      accountId,
      {
        day,
        settled: isSettledDay(day, now),
        actions: repeated(query['action']),
        objects: repeated(query['object']),
        successes: repeated(query['success']).map(parseSuccess),
        subject: singleQueryValue('subject', query['subject']),
      },
      page,
    );
    return { model: { success: true, message: null, ...pagedModel(events, totalElements, page, toJournalEventDto) } };
  }
}
