import { Module } from '@nestjs/common';
import { BypassJournal } from './bypass-journal';
import { IpListPolicy } from './ip-list-policy';
import { IpListsController } from './ip-lists.controller';
import { IpListsService } from './ip-lists.service';

@Module({
  controllers: [IpListsController],
  providers: [IpListsService, IpListPolicy, BypassJournal],
  exports: [IpListPolicy, BypassJournal],
})
export class IpListsModule {}
