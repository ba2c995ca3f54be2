import { Controller, HttpCode, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { ResourceAuthGuard } from '../auth/auth.guards';
import { CurrentPrincipal, ResourcePrincipal } from '../auth/principal';
import { ModelEnvelope } from '../http/envelope';
import { TokenRefreshService } from './token-refresh.service';
import { ParsedBody } from '../http/parsed-input';
import { TokenRefreshCommand, tokenRefreshCommandOf } from './tokens.dto';
import { SignInCall } from '../http/route-rules';
import { ApiFeature, ApiResourceAuth, ApiRoute } from '../openapi/api-route';
import { TOKEN_DOCS } from './tokens.openapi';

/** `POST /token/refresh`, with the resource's key and secret. */
@Controller({ path: 'token', version: VERSION_NEUTRAL })
@ApiFeature('Tokens')
export class TokenRefreshController {
  constructor(private readonly refresher: TokenRefreshService) {}

  @SignInCall('plain')
  @ApiRoute(TOKEN_DOCS.refresh)
  @ApiResourceAuth('model')
  @Post('refresh')
  @HttpCode(200)
  @UseGuards(ResourceAuthGuard)
  refresh(
    @CurrentPrincipal() principal: ResourcePrincipal,
    @ParsedBody(tokenRefreshCommandOf) command: TokenRefreshCommand,
  ): Promise<ModelEnvelope<string | null>> {
    return this.refresher.refresh(principal, command);
  }
}
