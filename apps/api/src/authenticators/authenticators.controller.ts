import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Put, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { journalPathUser } from '../users/users.journal';
import { ParsedBody } from '../http/parsed-input';
import {
  parseCopyToken,
  parseRegisterToken,
  parseUpdateAuthenticator,
  RegisterTokenCommand,
  UpdateAuthenticatorCommand,
} from './authenticators.commands';
import { AuthenticatorDto, AuthenticatorsByKindDto, CopiedTokenDto, RegisteredTokenDto } from './authenticators.dto';
import { AuthenticatorsService } from './authenticators.service';
import { Transactional } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { AUTHENTICATOR_DOCS } from './authenticators.openapi';

/**
 * SPEC.md "Authenticators": paths without a version prefix (and with /v1, like the V1 user API).
 * `{type}` is the kind in any case. Every call answers 200.
 */
@ModelEnvelopeErrors()
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
  @Transactional()
  @Journal('User', 'Update', { fromRequest: journalPathUser })
  async register(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
    @ParsedBody(parseRegisterToken) command: RegisterTokenCommand,
  ): Promise<ModelEnvelope<RegisteredTokenDto>> {
    return ok(await this.authenticators.registerToken(p.accountId, id, type, command), 'Authenticator registered.');
  }

  /** Rename (`{Name}`), or a move of an OTP token when `user` is given (`{user, name?}`). */
  @ApiRoute(AUTHENTICATOR_DOCS.update)
  @Put(':id/authenticators/:type/:authenticatorId')
  @Transactional()
  @Journal('User', 'Update', { fromRequest: journalPathUser })
  async update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
    @Param('authenticatorId') authenticatorId: string,
    @ParsedBody(parseUpdateAuthenticator) command: UpdateAuthenticatorCommand,
  ): Promise<ModelEnvelope<null>> {
    const done = await this.authenticators.update(p.accountId, id, type, authenticatorId, command);
    return ok(null, done === 'moved' ? 'Authenticator moved.' : 'Authenticator renamed.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.copy)
  @Patch(':id/authenticators/:type/:authenticatorId')
  @Transactional()
  @Journal('User', 'Update', { fromRequest: journalPathUser })
  async copy(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
    @Param('authenticatorId') authenticatorId: string,
    @ParsedBody(parseCopyToken) targetUserIds: string[],
  ): Promise<ModelEnvelope<CopiedTokenDto>> {
    return ok(await this.authenticators.copyToken(p.accountId, id, type, authenticatorId, targetUserIds), 'Authenticator copied.');
  }

  /** Ours (issue 14): the authenticator stays listed with `disabled: true`, and no code of it is accepted. */
  @ApiRoute(AUTHENTICATOR_DOCS.disable)
  @Post(':id/authenticators/:type/:authenticatorId/disable')
  @HttpCode(HttpStatus.OK)
  @Transactional()
  @Journal('Authenticator', 'Disable')
  async disable(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
    @Param('authenticatorId') authenticatorId: string,
  ): Promise<ModelEnvelope<AuthenticatorDto>> {
    return ok(await this.authenticators.setDisabled(p.accountId, id, type, authenticatorId, true), 'Authenticator disabled.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.enable)
  @Post(':id/authenticators/:type/:authenticatorId/enable')
  @HttpCode(HttpStatus.OK)
  @Transactional()
  @Journal('Authenticator', 'Enable')
  async enable(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Param('type') type: string,
    @Param('authenticatorId') authenticatorId: string,
  ): Promise<ModelEnvelope<AuthenticatorDto>> {
    return ok(await this.authenticators.setDisabled(p.accountId, id, type, authenticatorId, false), 'Authenticator enabled.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.delete)
  @Delete(':id/authenticators/:type/:authenticatorId')
  @Transactional()
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
  @Transactional()
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
