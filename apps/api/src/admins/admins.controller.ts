import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { PagedModel } from '../http/envelope';
import { ParsedBody, ParsedQuery } from '../http/parsed-input';
import {
  ListAdminsQuery,
  parseListAdminsQuery,
  parseRegisterAdmin,
  parseResendInvitationQuery,
  parseUpdateAdmin,
  RegisterAdminCommand,
  UpdateAdminCommand,
} from './admins.commands';
import { AdminDto, RegisteredAdminDto } from './admins.dto';
import { AdminsService } from './admins.service';
import { Transactional } from '../http/transactional';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { ADMIN_DOCS } from './admins.openapi';
import { journalNewAdminIdentity } from './admins.journal';

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
  list(
    @CurrentPrincipal() p: AccountPrincipal,
    @ParsedQuery(parseListAdminsQuery) query: ListAdminsQuery,
  ): Promise<PagedModel<AdminDto> | AdminDto> {
    return this.admins.list(p.accountId, query);
  }

  @ApiRoute(ADMIN_DOCS.register)
  @Post()
  @HttpCode(HttpStatus.OK)
  @Transactional()
  @Journal('Employee', 'Create', { fromRequest: journalNewAdminIdentity })
  register(
    @CurrentPrincipal() p: AccountPrincipal,
    @ParsedBody(parseRegisterAdmin) command: RegisterAdminCommand,
  ): Promise<RegisteredAdminDto> {
    return this.admins.register(p.accountId, command);
  }

  @ApiRoute(ADMIN_DOCS.resendInvitation)
  @Post('resend-invitation-email')
  @HttpCode(HttpStatus.OK)
  @Transactional()
  @Journal('EnrollmentLink', 'Send')
  resendInvitation(
    @CurrentPrincipal() p: AccountPrincipal,
    @ParsedQuery(parseResendInvitationQuery) id: string | undefined,
  ): Promise<void> {
    return this.admins.resendInvitation(p.accountId, id);
  }

  @ApiRoute(ADMIN_DOCS.lock)
  @Post('lock/:id')
  @HttpCode(HttpStatus.OK)
  @Transactional()
  @Journal('Employee', 'Lock')
  lock(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<void> {
    return this.admins.lock(p.accountId, id);
  }

  @ApiRoute(ADMIN_DOCS.unlock)
  @Post('unlock/:id')
  @HttpCode(HttpStatus.OK)
  @Transactional()
  @Journal('Employee', 'Unlock')
  unlock(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<void> {
    return this.admins.unlock(p.accountId, id);
  }

  @ApiRoute(ADMIN_DOCS.update)
  @Put(':id')
  @Transactional()
  @Journal('Employee', 'Update', { fromRequest: ({ params }) => ({ EmployeeId: params['id'] }) })
  update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @ParsedBody(parseUpdateAdmin) command: UpdateAdminCommand,
  ): Promise<void> {
    return this.admins.update(p.accountId, id, command);
  }

  @ApiRoute(ADMIN_DOCS.delete)
  @Delete(':id')
  @Transactional()
  @Journal('Employee', 'Delete')
  delete(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<void> {
    return this.admins.delete(p.accountId, id);
  }
}
