import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountBasicStrategy, ResourceBasicStrategy } from './basic.strategies';

@Module({
  imports: [PassportModule],
  providers: [AccountBasicStrategy, ResourceBasicStrategy],
})
export class AuthModule {}
