import { Module } from '@nestjs/common';
import { StandbyCodeJournal } from './standby-code.journal';
import { StandbyCodesController } from './standby-codes.controller';
import { StandbyCodesService } from './standby-codes.service';

/** Recovery codes and helpdesk bypass codes: handed out here, checked by the access decision (StandbyCodeFactorCheck). */
@Module({
  controllers: [StandbyCodesController],
  providers: [StandbyCodesService, StandbyCodeJournal],
  exports: [StandbyCodeJournal, StandbyCodesService],
})
export class StandbyCodesModule {}
