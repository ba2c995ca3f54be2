import { Module } from '@nestjs/common';
import { PhoneCodesRepository } from './phone-codes.repository';
import { PhoneGateways } from './phone-gateways';

/**
 * Codes sent to users' phones: their rows, the gateways that send them (the account's own, the
 * service's, the outbox). The check that sends and takes them is the access decision's
 * (access/decision/phone-code.check.ts).
 */
@Module({
  providers: [PhoneCodesRepository, PhoneGateways],
  exports: [PhoneCodesRepository, PhoneGateways],
})
export class PhoneCodesModule {}
