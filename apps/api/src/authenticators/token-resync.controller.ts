import { Controller, HttpCode, HttpStatus, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { OtpTokenKind } from '@twofold/domain';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { Input } from '../http/parsed-input';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { JournaledChange } from '../http/transactional';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { journalPathAuthenticator } from './authenticators.journal';
import { AuthenticatorPath, parseOtpTokenPath } from './authenticators.commands';
import { parseResync } from './token-resync';
import { TOKEN_RESYNC_DOCS } from './token-resync.openapi';
import { TokenResyncedDto, TokenResyncService } from './token-resync.service';

/** A hardware token out of step with the service (pressed too often, a drifting clock), resynchronized by an administrator. */
@ModelEnvelopeErrors()
@Controller({ path: 'users', version: [VERSION_NEUTRAL, '1'] })
@UseGuards(AccountAuthGuard)
@ApiFeature('Authenticators')
@ApiAccountAuth('model')
export class TokenResyncController {
  constructor(private readonly resyncs: TokenResyncService) {}

  @ApiRoute(TOKEN_RESYNC_DOCS.resync)
  @Post(':id/authenticators/:type/:authenticatorId/resync')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('Authenticator', 'Resync', { fromRequest: journalPathAuthenticator })
  async resync(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseOtpTokenPath) path: AuthenticatorPath<OtpTokenKind>,
    @Input('body', parseResync) codes: [string, string],
  ): Promise<ModelEnvelope<TokenResyncedDto>> {
    return ok(await this.resyncs.resync(p.accountId, path, codes), 'Token resynchronized.');
  }
}
