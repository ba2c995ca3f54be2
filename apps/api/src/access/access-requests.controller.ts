import { Controller, Get, HttpCode, Param, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { AccessRequestInput, validateAccessRequest } from '@twofold/domain';
import { AccountAuthGuard, ResourceAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal, ResourcePrincipal } from '../auth/principal';
import { ParsedBody, ParsedQueryAsOf } from '../http/parsed-input';
import { AccessHistoryQuery, parseAccessHistoryQuery } from './access-history.query';
import { AccessRequestsService } from './access-requests.service';
import { ModelEnvelopeErrors, SignInCall } from '../http/route-rules';

/**
 * `/access/requests` (CONTRACT §7); the `ra` family is RaRequestsController. Registered before the
 * access page's `/access/:id`, so that the page's one-segment route never shadows these.
 */
@ModelEnvelopeErrors()
@Controller({ path: 'access/requests', version: VERSION_NEUTRAL })
export class AccessRequestsController {
  constructor(private readonly requests: AccessRequestsService) {}

  @SignInCall('plain')
  @Post()
  @HttpCode(200)
  @UseGuards(ResourceAuthGuard)
  create(@CurrentPrincipal() principal: ResourcePrincipal, @ParsedBody(validateAccessRequest) input: AccessRequestInput) {
    return this.requests.create(principal, input);
  }

  @Get()
  @UseGuards(AccountAuthGuard)
  history(@CurrentPrincipal() principal: AccountPrincipal, @ParsedQueryAsOf(parseAccessHistoryQuery) query: AccessHistoryQuery) {
    return this.requests.history(principal.accountId, query);
  }

  @Get(':id')
  @UseGuards(ResourceAuthGuard)
  find(@CurrentPrincipal() principal: ResourcePrincipal, @Param('id') id: string) {
    return this.requests.find(principal, id);
  }
}
