import { Global, Module } from '@nestjs/common';
import { AccessTokensService } from './access-tokens.service';
import { TokenRefreshService } from './token-refresh.service';
import { TokenSigningKeysService } from './token-signing-keys.service';
import { JwksController } from './jwks.controller';
import { TokenRefreshController } from './token-refresh.controller';

/**
 * Access tokens: the one signer, the RSA keys and their JWKS, refresh.
 * Global, so the access page (and any later caller) injects AccessTokensService without importing it.
 */
@Global()
@Module({
  controllers: [JwksController, TokenRefreshController],
  providers: [TokenSigningKeysService, AccessTokensService, TokenRefreshService],
  exports: [AccessTokensService],
})
export class TokensModule {}
