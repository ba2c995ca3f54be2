import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { JournalPage, JournalService } from './journal.service';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { JOURNAL_DOCS } from './journal.openapi';

@Controller('journal')
@UseGuards(AccountAuthGuard)
@ApiFeature('Journal')
@ApiAccountAuth('model')
export class JournalController {
  constructor(private readonly journal: JournalService) {}

  @ApiRoute(JOURNAL_DOCS.list)
  @Get()
  list(@CurrentPrincipal() principal: AccountPrincipal, @Query() query: Record<string, unknown>): Promise<{ model: JournalPage }> {
    return this.journal.search(principal.accountId, query);
  }
}
