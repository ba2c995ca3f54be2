import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Put, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import {
  AuthenticatorsByKindDto,
  CopiedTokenDto,
  CopyTokenRequest,
  RegisteredTokenDto,
  RegisterTokenRequest,
  UpdateAuthenticatorRequest,
} from './authenticators.dto';
import { AuthenticatorsService } from './authenticators.service';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { AUTHENTICATOR_DOCS } from './authenticators.openapi';

/**
 * SPEC.md "Authenticators": paths without a version prefix (and with /v1, like the V1 user API).
 * `{type}` is the kind in any case. Every call answers 200.
 */
@Controller({ path: 'users', version: [VERSION_NEUTRAL, '1'] })
@UseGuards(AccountAuthGuard)
@ApiFeature('Authenticators')
@ApiAccountAuth('model')
export class AuthenticatorsController {
  constructor(private readonly authenticators: AuthenticatorsService) {}

  @ApiRoute(AUTHENTICATOR_DOCS.list)
  @Get(':id/authenticators')
  async list(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<ModelEnvelope<AuthenticatorsByKindDto>> {
    return ok(await this.authenticators.list(p.accountId, id));
  }

  @ApiRoute(AUTHENTICATOR_DOCS.register)
  @Post(':id/authenticators/:type')
  @HttpCode(HttpStatus.OK)
  @Journal('User', 'Update')
  async register(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
    @Body() body: RegisterTokenRequest,
  ): Promise<ModelEnvelope<RegisteredTokenDto>> {
    return ok(await this.authenticators.registerToken(p.accountId, id, type, body), 'Authenticator registered.');
  }

  /** Rename (`{Name}`), or a move of an OTP token when `user` is given (`{user, name?}`). */
  @ApiRoute(AUTHENTICATOR_DOCS.update)
  @Put(':id/authenticators/:type/:authenticatorId')
  @Journal('User', 'Update')
  async update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
    @Param('authenticatorId') authenticatorId: string,
    @Body() body: UpdateAuthenticatorRequest,
  ): Promise<ModelEnvelope<null>> {
    const done = await this.authenticators.update(p.accountId, id, type, authenticatorId, body);
    return ok(null, done === 'moved' ? 'Authenticator moved.' : 'Authenticator renamed.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.copy)
  @Patch(':id/authenticators/:type/:authenticatorId')
  @Journal('User', 'Update')
  async copy(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
    @Param('authenticatorId') authenticatorId: string,
    @Body() body: CopyTokenRequest,
  ): Promise<ModelEnvelope<CopiedTokenDto>> {
    return ok(await this.authenticators.copyToken(p.accountId, id, type, authenticatorId, body), 'Authenticator copied.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.delete)
  @Delete(':id/authenticators/:type/:authenticatorId')
  @Journal('Authenticator', 'Disable')
  async delete(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
    @Param('authenticatorId') authenticatorId: string,
  ): Promise<ModelEnvelope<null>> {
    await this.authenticators.delete(p.accountId, id, type, authenticatorId);
    return ok(null, 'Authenticator deleted.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.deleteKind)
  @Delete(':id/authenticators/:type')
  @Journal('Authenticator', 'Disable')
  async deleteKind(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
  ): Promise<ModelEnvelope<null>> {
    const removed = await this.authenticators.deleteKind(p.accountId, id, type);
    return ok(null, removed === 1 ? '1 authenticator deleted.' : `${removed} authenticators deleted.`);
  }
}
