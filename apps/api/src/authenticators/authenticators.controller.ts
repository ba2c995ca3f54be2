import { Controller, Delete, Get, HttpCode, HttpStatus, Patch, Post, Put, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { journalPathAuthenticator } from './authenticators.journal';
import { parseUserPath } from '../users/users.commands';
import { RecordId } from '@twofold/domain';
import { Input } from '../http/parsed-input';
import {
  AuthenticatorKindPath,
  AuthenticatorPath,
  parseAuthenticatorKindPath,
  parseAuthenticatorPath,
  parseCopyToken,
  parseOtpTokenKindPath,
  parseOtpTokenPath,
  parseRegisterToken,
  parseUpdateAuthenticator,
  RegisterTokenCommand,
  UpdateAuthenticatorCommand,
} from './authenticators.commands';
import { OtpTokenKind } from '@twofold/domain';
import { AuthenticatorDto, AuthenticatorsByKindDto, CopiedTokenDto, RegisteredTokenDto } from './authenticators.dto';
import { AuthenticatorsService } from './authenticators.service';
import { JournaledChange } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { AUTHENTICATOR_DOCS } from './authenticators.openapi';

/**
 * Paths without a version prefix (and with /v1, like the V1 user API).
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
  async list(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
  ): Promise<ModelEnvelope<AuthenticatorsByKindDto>> {
    return ok(await this.authenticators.list(p.accountId, id));
  }

  @ApiRoute(AUTHENTICATOR_DOCS.register)
  @Post(':id/authenticators/:type')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('User', 'Update', { fromRequest: journalPathAuthenticator })
  async register(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseOtpTokenKindPath) path: AuthenticatorKindPath<OtpTokenKind>,
    @Input('body', parseRegisterToken) command: RegisterTokenCommand,
  ): Promise<ModelEnvelope<RegisteredTokenDto>> {
    return ok(await this.authenticators.registerToken(p.accountId, path, command), 'Authenticator registered.');
  }

  /** Rename (`{Name}`), or a move of an OTP token when `user` is given (`{user, name?}`). */
  @ApiRoute(AUTHENTICATOR_DOCS.update)
  @Put(':id/authenticators/:type/:authenticatorId')
  @JournaledChange('User', 'Update', { fromRequest: journalPathAuthenticator })
  async update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseAuthenticatorPath) path: AuthenticatorPath,
    @Input('body', parseUpdateAuthenticator) command: UpdateAuthenticatorCommand,
  ): Promise<ModelEnvelope<null>> {
    const done = await this.authenticators.update(p.accountId, path, command);
    return ok(null, done === 'moved' ? 'Authenticator moved.' : 'Authenticator renamed.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.copy)
  @Patch(':id/authenticators/:type/:authenticatorId')
  @JournaledChange('User', 'Update', { fromRequest: journalPathAuthenticator })
  async copy(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseOtpTokenPath) path: AuthenticatorPath<OtpTokenKind>,
    @Input('body', parseCopyToken) targetUserIds: RecordId[],
  ): Promise<ModelEnvelope<CopiedTokenDto>> {
    return ok(await this.authenticators.copyToken(p.accountId, path, targetUserIds), 'Authenticator copied.');
  }

  /** Ours: the authenticator stays listed with `disabled: true`, and no code of it is accepted. */
  @ApiRoute(AUTHENTICATOR_DOCS.disable)
  @Post(':id/authenticators/:type/:authenticatorId/disable')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('Authenticator', 'Disable', { fromRequest: journalPathAuthenticator })
  async disable(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseAuthenticatorPath) path: AuthenticatorPath,
  ): Promise<ModelEnvelope<AuthenticatorDto>> {
    return ok(await this.authenticators.setDisabled(p.accountId, path, true), 'Authenticator disabled.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.enable)
  @Post(':id/authenticators/:type/:authenticatorId/enable')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('Authenticator', 'Enable', { fromRequest: journalPathAuthenticator })
  async enable(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseAuthenticatorPath) path: AuthenticatorPath,
  ): Promise<ModelEnvelope<AuthenticatorDto>> {
    return ok(await this.authenticators.setDisabled(p.accountId, path, false), 'Authenticator enabled.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.delete)
  @Delete(':id/authenticators/:type/:authenticatorId')
  @JournaledChange('Authenticator', 'Disable', { fromRequest: journalPathAuthenticator })
  async delete(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseAuthenticatorPath) path: AuthenticatorPath,
  ): Promise<ModelEnvelope<null>> {
    await this.authenticators.delete(p.accountId, path);
    return ok(null, 'Authenticator deleted.');
  }

  @ApiRoute(AUTHENTICATOR_DOCS.deleteKind)
  @Delete(':id/authenticators/:type')
  @JournaledChange('Authenticator', 'Disable', { fromRequest: journalPathAuthenticator })
  async deleteKind(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseAuthenticatorKindPath) path: AuthenticatorKindPath,
  ): Promise<ModelEnvelope<null>> {
    const removed = await this.authenticators.deleteKind(p.accountId, path);
    return ok(null, removed === 1 ? '1 authenticator deleted.' : `${removed} authenticators deleted.`);
  }
}
