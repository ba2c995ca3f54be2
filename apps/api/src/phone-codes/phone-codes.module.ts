import { Module } from '@nestjs/common';
import { PhoneCodesRepository } from './phone-codes.repository';
import { PhoneGateways } from './phone-gateways';
import { PhoneGatewaysController } from './phone-gateways.controller';
import { PhoneGatewaysService } from './phone-gateways.service';

/**
 * Codes sent to users' phones: their rows, the gateways that send them (the account's own, the
 * service's, the outbox). The check that sends and takes them is the access decision's
 * (access/decision/phone-code.check.ts). The account's gateways and allow-list are settings
 * (`/settings/sms-gateway`, `/settings/call-gateway`, `/settings/phone-destinations`).
 */
@Module({
  controllers: [PhoneGatewaysController],
  providers: [PhoneCodesRepository, PhoneGateways, PhoneGatewaysService],
  exports: [PhoneCodesRepository, PhoneGateways],
})
export class PhoneCodesModule {}
