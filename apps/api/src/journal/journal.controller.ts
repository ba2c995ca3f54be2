import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { JournalPage, JournalService } from './journal.service';

@Controller('journal')
@UseGuards(AccountAuthGuard)
export class JournalController {
  constructor(private readonly journal: JournalService) {}

  @Get()
  list(@CurrentPrincipal() principal: AccountPrincipal, @Query() query: Record<string, unknown>): Promise<{ model: JournalPage }> {
    return this.journal.search(principal.accountId, query);
  }
}
