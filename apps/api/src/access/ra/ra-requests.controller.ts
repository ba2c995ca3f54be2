import { Controller, HttpCode, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { AccessRequestRateGuard } from '../access-request-throttle';
import { parseLaRequest, parseRaChallenge, parseRaRequest, RaChallengeCommand, RaRequestCommand } from './ra.commands';
import { ClientHangUp } from '../../http/client-hang-up';
import { ResourceAuthGuard } from '../../auth/auth.guards';
import { CurrentPrincipal, ResourcePrincipal } from '../../auth/principal';
import { ParsedBodyOfCaller } from '../../http/parsed-input';
import { raBadRequestAnswer } from './ra-answer';
import { RaRequestsService } from './ra-requests.service';
import { ModelEnvelopeErrors, SignInCall } from '../../http/route-rules';
import { ApiFeature, ApiResourceAuth, ApiRoute } from '../../openapi/api-route';
import { ACCESS_DOCS } from '../access.openapi';

/**
 * The `ra` family, resource credentials: `POST /access/requests/ra` (a RADIUS
 * adapter's first step, or one step with the code), `/ra/challenge` (its second step) and `/md` (a
 * directory server's LDAP bind). Every outcome is 200 with the whole model, refusals of a body
 * it could not use included: the exception filter answers them with `raBadRequestAnswer`.
 */
@ModelEnvelopeErrors()
@Controller({ path: 'access/requests', version: VERSION_NEUTRAL })
@UseGuards(ResourceAuthGuard)
@ApiFeature('Access requests')
@ApiResourceAuth('model')
export class RaRequestsController {
  constructor(private readonly ra: RaRequestsService) {}

  @SignInCall(raBadRequestAnswer)
  @ApiRoute(ACCESS_DOCS.passCode)
  @Post('ra')
  @HttpCode(200)
  @UseGuards(AccessRequestRateGuard)
  passCode(
    @CurrentPrincipal() principal: ResourcePrincipal,
    @ParsedBodyOfCaller(parseRaRequest) input: RaRequestCommand,
    @ClientHangUp() hangUp: AbortSignal,
  ) {
    return this.ra.passCode(principal, 'ra', input, hangUp);
  }

  @SignInCall(raBadRequestAnswer)
  @ApiRoute(ACCESS_DOCS.challenge)
  @Post('ra/challenge')
  @HttpCode(200)
  challenge(
    @CurrentPrincipal() principal: ResourcePrincipal,
    @ParsedBodyOfCaller(parseRaChallenge) input: RaChallengeCommand,
    @ClientHangUp() hangUp: AbortSignal,
  ) {
    return this.ra.challenge(principal, input, hangUp);
  }

  @SignInCall(raBadRequestAnswer)
  @ApiRoute(ACCESS_DOCS.directoryBind)
  @Post('md')
  @HttpCode(200)
  @UseGuards(AccessRequestRateGuard)
  directoryBind(
    @CurrentPrincipal() principal: ResourcePrincipal,
    @ParsedBodyOfCaller(parseRaRequest) input: RaRequestCommand,
    @ClientHangUp() hangUp: AbortSignal,
  ) {
    return this.ra.passCode(principal, 'md', input, hangUp);
  }

  @SignInCall(raBadRequestAnswer)
  @ApiRoute(ACCESS_DOCS.ldapBind)
  @Post('la')
  @HttpCode(200)
  @UseGuards(AccessRequestRateGuard)
  ldapBind(
    @CurrentPrincipal() principal: ResourcePrincipal,
    @ParsedBodyOfCaller(parseLaRequest) input: RaRequestCommand,
    @ClientHangUp() hangUp: AbortSignal,
  ) {
    return this.ra.passCode(principal, 'la', input, hangUp);
  }
}
