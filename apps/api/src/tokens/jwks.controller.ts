import { Controller, Get, Header, VERSION_NEUTRAL } from '@nestjs/common';
import { TokenSigningKeysService } from './token-signing-keys.service';
import { JwksDto } from './tokens.dto';
import { ApiFeature, ApiRoute } from '../openapi/api-route';
import { TOKEN_DOCS } from './tokens.openapi';

/**
 * Public keys change rarely, but a rotated key must reach verifiers within 10 s: the
 * API reads keys at most SIGNING_KEY_CACHE_TTL_MS old, and shared caches may add this much.
 */
export const JWKS_MAX_AGE_SECONDS = 5;

/** `GET /.well-known/jwks.json`: no credentials, the public keys of JwtRS256 tokens. */
@Controller({ path: '.well-known', version: VERSION_NEUTRAL })
@ApiFeature('Tokens')
export class JwksController {
  constructor(private readonly keys: TokenSigningKeysService) {}

  @ApiRoute(TOKEN_DOCS.jwks)
  @Get('jwks.json')
  @Header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
  async jwks(): Promise<JwksDto> {
    return { keys: await this.keys.publishedJwks() };
  }
}
