import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock, isSettledDay } from '@twofold/domain';
import { JournalRepository } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { pagedModel } from '../http/envelope';
import { JournalAnswerDto, toJournalEventDto } from './journal.dto';
import { JournalQuery } from './journal.commands';

@Injectable()
export class JournalService {
  constructor(
    private readonly events: JournalRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** GET /journal: one past UTC day of the caller's account, filtered, paged. */
  async search(accountId: AccountId, query: JournalQuery): Promise<JournalAnswerDto> {
    const { day, page, actions, objects, successes, subject } = query;
    const [events, totalElements] = await this.events.search(
      accountId,
      { day, settled: isSettledDay(day, this.clock.now()), actions, objects, successes, subject },
      page,
    );
    return { model: { success: true, message: null, ...pagedModel(events, totalElements, page, toJournalEventDto) } };
  }
}
