import { Controller, Get, HttpCode, Param, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { AccessRequestInput, validateAccessRequest } from '@twofold/domain';
import { AccountAuthGuard, ResourceAuthGuard } from '../../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal, ResourcePrincipal } from '../../auth/principal';
import { ParsedBodyOfCaller, ParsedQueryAsOfCaller } from '../../http/parsed-input';
import { AccessHistoryQuery, parseAccessHistoryQuery } from './access-history.query';
import { AccessRequestsService } from './access-requests.service';
import { ModelEnvelopeErrors, SignInCall } from '../../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiResourceAuth, ApiRoute } from '../../openapi/api-route';
import { ACCESS_DOCS } from '../access.openapi';
import { AccessRequestRateGuard } from '../access-request-throttle';

/**
 * `/access/requests`; the `ra` family is RaRequestsController. Registered before the
 * access page's `/access/:id`, so that the page's one-segment route never shadows these.
 */
@ModelEnvelopeErrors()
@Controller({ path: 'access/requests', version: VERSION_NEUTRAL })
@ApiFeature('Access requests')
export class AccessRequestsController {
  constructor(private readonly requests: AccessRequestsService) {}

  @SignInCall('plain')
  @ApiRoute(ACCESS_DOCS.create)
  @ApiResourceAuth('model')
  @Post()
  @HttpCode(200)
  @UseGuards(ResourceAuthGuard, AccessRequestRateGuard)
  create(@CurrentPrincipal() principal: ResourcePrincipal, @ParsedBodyOfCaller(validateAccessRequest) input: AccessRequestInput) {
    return this.requests.create(principal, input);
  }

  @ApiRoute(ACCESS_DOCS.history)
  @ApiAccountAuth('model')
  @Get()
  @UseGuards(AccountAuthGuard)
  history(@CurrentPrincipal() principal: AccountPrincipal, @ParsedQueryAsOfCaller(parseAccessHistoryQuery) query: AccessHistoryQuery) {
    return this.requests.history(principal.accountId, query);
  }

  @ApiRoute(ACCESS_DOCS.find)
  @ApiResourceAuth('model')
  @Get(':id')
  @UseGuards(ResourceAuthGuard)
  find(@CurrentPrincipal() principal: ResourcePrincipal, @Param('id') id: string) {
    return this.requests.find(principal, id);
  }
}
