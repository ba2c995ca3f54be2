import { Module } from '@nestjs/common';
import { AuthenticatorsController } from './authenticators.controller';
import { AuthenticatorsService } from './authenticators.service';
import { TokenResyncController } from './token-resync.controller';
import { TokenResyncService } from './token-resync.service';

@Module({
  controllers: [AuthenticatorsController, TokenResyncController],
  providers: [AuthenticatorsService, TokenResyncService],
  exports: [AuthenticatorsService],
})
export class AuthenticatorsModule {}
