import { Module } from '@nestjs/common';
import { IpListPolicy } from './ip-list-policy';
import { IpListsController } from './ip-lists.controller';
import { IpListsService } from './ip-lists.service';

@Module({ controllers: [IpListsController], providers: [IpListsService, IpListPolicy], exports: [IpListPolicy] })
export class IpListsModule {}
