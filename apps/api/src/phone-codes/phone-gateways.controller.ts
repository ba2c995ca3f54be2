import { Controller, Delete, Get, Put, UseGuards } from '@nestjs/common';
import { HttpGatewaySettings } from '@twofold/domain';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { Input } from '../http/parsed-input';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { JournaledChange } from '../http/transactional';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { parseDestinationsBody, parseGatewayBody } from './phone-gateways.commands';
import { PhoneDestinationsDto, PhoneGatewayDto } from './phone-gateways.dto';
import { PHONE_GATEWAY_DOCS } from './phone-gateways.openapi';
import { PhoneGatewaysService } from './phone-gateways.service';

/** The account's own SMS and call gateways, and the countries its codes may be sent to. */
@ModelEnvelopeErrors()
@Controller('settings')
@UseGuards(AccountAuthGuard)
@ApiFeature('Settings')
@ApiAccountAuth('model')
export class PhoneGatewaysController {
  constructor(private readonly service: PhoneGatewaysService) {}

  @ApiRoute(PHONE_GATEWAY_DOCS.sms.read)
  @Get('sms-gateway')
  async smsGateway(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<PhoneGatewayDto>> {
    return ok(await this.service.gateway(p.accountId, 'sms'));
  }

  @ApiRoute(PHONE_GATEWAY_DOCS.sms.set)
  @Put('sms-gateway')
  @JournaledChange('ExternalSMS', 'Enable')
  async setSmsGateway(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseGatewayBody) settings: HttpGatewaySettings,
  ): Promise<ModelEnvelope<PhoneGatewayDto>> {
    return ok(await this.service.setGateway(p.accountId, 'sms', settings));
  }

  @ApiRoute(PHONE_GATEWAY_DOCS.sms.remove)
  @Delete('sms-gateway')
  @JournaledChange('ExternalSMS', 'Disable')
  async removeSmsGateway(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<PhoneGatewayDto>> {
    return ok(await this.service.removeGateway(p.accountId, 'sms'));
  }

  @ApiRoute(PHONE_GATEWAY_DOCS.call.read)
  @Get('call-gateway')
  async callGateway(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<PhoneGatewayDto>> {
    return ok(await this.service.gateway(p.accountId, 'call'));
  }

  @ApiRoute(PHONE_GATEWAY_DOCS.call.set)
  @Put('call-gateway')
  @JournaledChange('ExternalSIP', 'Enable')
  async setCallGateway(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseGatewayBody) settings: HttpGatewaySettings,
  ): Promise<ModelEnvelope<PhoneGatewayDto>> {
    return ok(await this.service.setGateway(p.accountId, 'call', settings));
  }

  @ApiRoute(PHONE_GATEWAY_DOCS.call.remove)
  @Delete('call-gateway')
  @JournaledChange('ExternalSIP', 'Disable')
  async removeCallGateway(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<PhoneGatewayDto>> {
    return ok(await this.service.removeGateway(p.accountId, 'call'));
  }

  @ApiRoute(PHONE_GATEWAY_DOCS.destinations)
  @Get('phone-destinations')
  async destinations(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<PhoneDestinationsDto>> {
    return ok(await this.service.destinations(p.accountId));
  }

  @ApiRoute(PHONE_GATEWAY_DOCS.setDestinations)
  @Put('phone-destinations')
  @JournaledChange('ExternalSMS', 'ChangeDestinations')
  async setDestinations(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseDestinationsBody) prefixes: string[],
  ): Promise<ModelEnvelope<PhoneDestinationsDto>> {
    return ok(await this.service.setDestinations(p.accountId, prefixes));
  }
}
