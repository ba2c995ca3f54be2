import { Controller, HttpCode, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { AccessRequestRateGuard } from '../access/access-request-throttle';
import { ResourceAuthGuard } from '../auth/auth.guards';
import { CurrentPrincipal, ResourcePrincipal } from '../auth/principal';
import { ModelEnvelope } from '../http/envelope';
import { Input } from '../http/parsed-input';
import { ModelEnvelopeErrors, SignInCall } from '../http/route-rules';
import { Transactional } from '../http/transactional';
import { ApiFeature, ApiResourceAuth, ApiRoute } from '../openapi/api-route';
import { parseRecovery, RecoveryCommand, SelfServiceRecoveryService } from './self-service-recovery.service';
import { SELF_SERVICE_DOCS } from './self-service.openapi';

/**
 * The portal's password reset and account unlock, with its resource key. Refusals are 200 `success:
 * false`, as on every call a portal makes before letting someone act on an account.
 */
@ModelEnvelopeErrors()
@Controller({ path: 'self-service', version: VERSION_NEUTRAL })
@UseGuards(ResourceAuthGuard)
@ApiFeature('Self-service portals')
@ApiResourceAuth('model')
export class SelfServiceRecoveryController {
  constructor(private readonly recovery: SelfServiceRecoveryService) {}

  @SignInCall('plain')
  @ApiRoute(SELF_SERVICE_DOCS.startResetPassword)
  @Post('start-reset-password')
  @HttpCode(200)
  @UseGuards(AccessRequestRateGuard)
  @Transactional()
  startResetPassword(
    @CurrentPrincipal() p: ResourcePrincipal,
    @Input('body', (body, { identityFormat }) => parseRecovery(body, identityFormat)) command: RecoveryCommand,
  ): Promise<ModelEnvelope<{ url: string } | null>> {
    return this.recovery.start(p, 'resetPassword', command);
  }

  @SignInCall('plain')
  @ApiRoute(SELF_SERVICE_DOCS.startUnlockUser)
  @Post('start-unlock-user')
  @HttpCode(200)
  @UseGuards(AccessRequestRateGuard)
  @Transactional()
  startUnlockUser(
    @CurrentPrincipal() p: ResourcePrincipal,
    @Input('body', (body, { identityFormat }) => parseRecovery(body, identityFormat)) command: RecoveryCommand,
  ): Promise<ModelEnvelope<{ url: string } | null>> {
    return this.recovery.start(p, 'unlockUser', command);
  }
}
