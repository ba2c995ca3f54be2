import { Controller, Get, HttpCode, HttpStatus, Post, Req, VERSION_NEUTRAL } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { roleMay } from '@twofold/domain';
import { RoleForbids } from '../http/api-errors';
import { ApiFeature, ApiRoute } from '../openapi/api-route';
import { AccountApiSecretView, AccountApiView, ConsoleAccountApiService } from './console-account-api.service';
import { ConsoleSession } from './console-sessions';
import { ConsoleSessionAuthenticator } from './console-session.authenticator';
import { CONSOLE_ACCOUNT_API_DOCS } from './console.openapi';

/**
 * The account's own API key, secret and switch in the console: console routes of their own (the
 * account API has no route for them, an API key does not change itself), an Admin's only, with the
 * cookie, the CSRF token and, for every one of them, the console's origin (POST even to display the
 * secret: each display is journaled, a change of the journal no other site may cause).
 */
@Controller({ path: 'console/api/account-api', version: VERSION_NEUTRAL })
@ApiFeature('Console')
export class ConsoleAccountApiController {
  constructor(
    private readonly authenticator: ConsoleSessionAuthenticator,
    private readonly accountApi: ConsoleAccountApiService,
  ) {}

  @ApiRoute(CONSOLE_ACCOUNT_API_DOCS.read)
  @Get()
  async read(@Req() req: FastifyRequest): Promise<AccountApiView> {
    const session = await this.admin(req);
    return this.accountApi.read(session.accountId);
  }

  @ApiRoute(CONSOLE_ACCOUNT_API_DOCS.displaySecret)
  @Post('secret/display')
  @HttpCode(HttpStatus.OK)
  async displaySecret(@Req() req: FastifyRequest): Promise<AccountApiSecretView> {
    return this.accountApi.displaySecret(await this.admin(req));
  }

  @ApiRoute(CONSOLE_ACCOUNT_API_DOCS.rotateSecret)
  @Post('secret')
  @HttpCode(HttpStatus.OK)
  async rotateSecret(@Req() req: FastifyRequest): Promise<AccountApiSecretView> {
    return this.accountApi.rotateSecret(await this.admin(req));
  }

  @ApiRoute(CONSOLE_ACCOUNT_API_DOCS.enable)
  @Post('enable')
  @HttpCode(HttpStatus.OK)
  async enable(@Req() req: FastifyRequest): Promise<AccountApiView> {
    return this.accountApi.setEnabled(await this.admin(req), true);
  }

  @ApiRoute(CONSOLE_ACCOUNT_API_DOCS.disable)
  @Post('disable')
  @HttpCode(HttpStatus.OK)
  async disable(@Req() req: FastifyRequest): Promise<AccountApiView> {
    return this.accountApi.setEnabled(await this.admin(req), false);
  }

  /** The session (cookie, CSRF token, origin for a change), and a role that may manage the account. */
  private async admin(req: FastifyRequest): Promise<ConsoleSession> {
    const session = await this.authenticator.authenticateSession(req);
    if (!roleMay(session.role, 'account.manage')) throw new RoleForbids();
    return session;
  }
}
