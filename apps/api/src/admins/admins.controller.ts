import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, Query, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { lowerCaseKeys } from '../http/case-insensitive-keys';
import { PagedModel } from '../http/envelope';
import { AdminDto, RegisteredAdminDto, RegisterAdminRequest, UpdateAdminRequest } from './admins.dto';
import { AdminsService } from './admins.service';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { ADMIN_DOCS } from './admins.openapi';

/**
 * SPEC.md "Administrators": every path with and without /v1. Bare objects, not the model envelope;
 * every call answers 200 (SPEC.md "Response envelopes": "or bare status 200").
 */
@Controller({ path: 'admins', version: [VERSION_NEUTRAL, '1'] })
@UseGuards(AccountAuthGuard)
@ApiFeature('Administrators')
@ApiAccountAuth('plain')
export class AdminsController {
  constructor(private readonly admins: AdminsService) {}

  @ApiRoute(ADMIN_DOCS.list)
  @Get()
  list(@CurrentPrincipal() p: AccountPrincipal, @Query() query: Record<string, unknown>): Promise<PagedModel<AdminDto> | AdminDto> {
    return this.admins.list(p.accountId, query);
  }

  @ApiRoute(ADMIN_DOCS.register)
  @Post()
  @HttpCode(HttpStatus.OK)
  @Journal('Employee', 'Create')
  register(@CurrentPrincipal() p: AccountPrincipal, @Body() body: RegisterAdminRequest): Promise<RegisteredAdminDto> {
    return this.admins.register(p.accountId, body);
  }

  @ApiRoute(ADMIN_DOCS.resendInvitation)
  @Post('resend-invitation-email')
  @HttpCode(HttpStatus.OK)
  @Journal('EnrollmentLink', 'Send')
  resendInvitation(@CurrentPrincipal() p: AccountPrincipal, @Query() query: Record<string, unknown>): Promise<void> {
    return this.admins.resendInvitation(p.accountId, lowerCaseKeys(query)['id']);
  }

  @ApiRoute(ADMIN_DOCS.lock)
  @Post('lock/:id')
  @HttpCode(HttpStatus.OK)
  @Journal('Employee', 'Lock')
  lock(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<void> {
    return this.admins.lock(p.accountId, id);
  }

  @ApiRoute(ADMIN_DOCS.unlock)
  @Post('unlock/:id')
  @HttpCode(HttpStatus.OK)
  @Journal('Employee', 'Unlock')
  unlock(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<void> {
    return this.admins.unlock(p.accountId, id);
  }

  @ApiRoute(ADMIN_DOCS.update)
  @Put(':id')
  @Journal('Employee', 'Update')
  update(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string, @Body() body: UpdateAdminRequest): Promise<void> {
    return this.admins.update(p.accountId, id, body);
  }

  @ApiRoute(ADMIN_DOCS.delete)
  @Delete(':id')
  @Journal('Employee', 'Delete')
  delete(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<void> {
    return this.admins.delete(p.accountId, id);
  }
}
