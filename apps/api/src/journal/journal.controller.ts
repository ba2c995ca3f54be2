import { Controller, Get, UseGuards } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { Input } from '../http/parsed-input';
import { JournalQuery, parseJournalQuery } from './journal.commands';
import { JournalService } from './journal.service';
import { JournalAnswerDto } from './journal.dto';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { JOURNAL_DOCS } from './journal.openapi';

@ModelEnvelopeErrors()
@Controller('journal')
@UseGuards(AccountAuthGuard)
@ApiFeature('Journal')
@ApiAccountAuth('model')
export class JournalController {
  constructor(private readonly journal: JournalService) {}

  @ApiRoute(JOURNAL_DOCS.list)
  @Get()
  list(@CurrentPrincipal() principal: AccountPrincipal, @Input('query', parseJournalQuery) query: JournalQuery): Promise<JournalAnswerDto> {
    return this.journal.search(principal.accountId, query);
  }
}
