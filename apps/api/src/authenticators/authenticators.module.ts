import { Module } from '@nestjs/common';
import { AuthenticatorsController } from './authenticators.controller';
import { AuthenticatorsService } from './authenticators.service';

@Module({ controllers: [AuthenticatorsController], providers: [AuthenticatorsService], exports: [AuthenticatorsService] })
export class AuthenticatorsModule {}
