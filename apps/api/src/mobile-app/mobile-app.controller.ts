import { Controller, Get, HttpCode, HttpStatus, Post, Put, Req, VERSION_NEUTRAL } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { ClientAddressResolver } from '../http/client-address';
import { ParsedBody } from '../http/parsed-input';
import { ApiFeature, ApiRoute } from '../openapi/api-route';
import { parseDecisionRequest, parseEnrollRequest, parseSignedRequest, parseSubscriptionRequest } from './mobile-app.input';
import { MOBILE_APP_DOCS } from './mobile-app.openapi';
import { DecisionRequest, Enrolled, EnrollRequest, MobileAppService, PendingForDevice } from './mobile-app.service';
import { PushSubscriptionKeys } from '@twofold/persistence';
import { SignedEnvelope } from './device-signature';
import { WebPushSender } from './web-push.sender';

/**
 * The device-facing protocol of the service's authenticator app. No credentials scheme: each request
 * is signed by the device's own key (device-signature.ts), so nothing the app stores could be copied
 * and replayed as a bearer secret. POST even for reads: every signed request spends a counter.
 */
@Controller({ path: 'mobile-app/v1', version: VERSION_NEUTRAL })
@ApiFeature('Mobile app')
export class MobileAppController {
  constructor(
    private readonly service: MobileAppService,
    private readonly sender: WebPushSender,
    private readonly addresses: ClientAddressResolver,
  ) {}

  @ApiRoute(MOBILE_APP_DOCS.pushKey)
  @Get('push-key')
  async pushKey(): Promise<{ publicKey: string }> {
    return { publicKey: await this.sender.publicKey() };
  }

  @ApiRoute(MOBILE_APP_DOCS.enroll)
  @Post('devices')
  @HttpCode(HttpStatus.OK)
  enroll(@ParsedBody(parseEnrollRequest) request: EnrollRequest): Promise<Enrolled> {
    return this.service.enroll(request);
  }

  @ApiRoute(MOBILE_APP_DOCS.approvals)
  @Post('approvals')
  @HttpCode(HttpStatus.OK)
  async approvals(@ParsedBody(parseSignedRequest) envelope: SignedEnvelope): Promise<{ approvals: PendingForDevice[] }> {
    return { approvals: await this.service.pendingFor(envelope) };
  }

  @ApiRoute(MOBILE_APP_DOCS.decide)
  @Post('decisions')
  @HttpCode(HttpStatus.OK)
  async decide(@ParsedBody(parseDecisionRequest) request: DecisionRequest, @Req() req: FastifyRequest): Promise<{ result: string }> {
    const address = this.addresses.resolve(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    return { result: await this.service.decide(request, address ?? null) };
  }

  @ApiRoute(MOBILE_APP_DOCS.subscription)
  @Put('subscription')
  @HttpCode(HttpStatus.OK)
  async subscription(
    @ParsedBody(parseSubscriptionRequest) request: { subscription: PushSubscriptionKeys | null; envelope: SignedEnvelope },
  ): Promise<Record<string, never>> {
    await this.service.setSubscription(request.envelope, request.subscription);
    return {};
  }
}
