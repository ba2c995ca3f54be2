import { Controller, Delete, Get, HttpCode, HttpStatus, Post, Put, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { PagedModel } from '../http/envelope';
import { Input } from '../http/parsed-input';
import {
  ListAdminsQuery,
  parseAdminPath,
  parseListAdminsQuery,
  parseRegisterAdmin,
  parseResendInvitationQuery,
  parseUpdateAdmin,
  RegisterAdminCommand,
  UpdateAdminCommand,
} from './admins.commands';
import { AdminDto, RegisteredAdminDto } from './admins.dto';
import { AdminsService } from './admins.service';
import { JournaledChange } from '../http/transactional';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { ADMIN_DOCS } from './admins.openapi';
import { journalNewAdminIdentity, journalPathAdmin } from './admins.journal';
import { RecordId } from '@twofold/domain';

/**
 * The administrator API: every path with and without /v1. Bare objects, not the model envelope;
 * every call answers 200, a bare status where there is nothing to return.
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
    @Input('query', parseListAdminsQuery) query: ListAdminsQuery,
  ): Promise<PagedModel<AdminDto> | AdminDto> {
    return this.admins.list(p.accountId, query);
  }

  @ApiRoute(ADMIN_DOCS.register)
  @Post()
  @HttpCode(HttpStatus.OK)
  @JournaledChange('Employee', 'Create', { fromRequest: journalNewAdminIdentity })
  register(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseRegisterAdmin) command: RegisterAdminCommand,
  ): Promise<RegisteredAdminDto> {
    return this.admins.register(p.accountId, command);
  }

  @ApiRoute(ADMIN_DOCS.resendInvitation)
  @Post('resend-invitation-email')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('EnrollmentLink', 'Send')
  resendInvitation(@CurrentPrincipal() p: AccountPrincipal, @Input('query', parseResendInvitationQuery) id: RecordId): Promise<void> {
    return this.admins.resendInvitation(p.accountId, id);
  }

  @ApiRoute(ADMIN_DOCS.lock)
  @Post('lock/:id')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('Employee', 'Lock', { fromRequest: journalPathAdmin })
  lock(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseAdminPath) id: RecordId): Promise<void> {
    return this.admins.lock(p.accountId, id);
  }

  @ApiRoute(ADMIN_DOCS.unlock)
  @Post('unlock/:id')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('Employee', 'Unlock', { fromRequest: journalPathAdmin })
  unlock(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseAdminPath) id: RecordId): Promise<void> {
    return this.admins.unlock(p.accountId, id, p.login);
  }

  @ApiRoute(ADMIN_DOCS.update)
  @Put(':id')
  @JournaledChange('Employee', 'Update', { fromRequest: journalPathAdmin })
  update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseAdminPath) id: RecordId,
    @Input('body', parseUpdateAdmin) command: UpdateAdminCommand,
  ): Promise<void> {
    return this.admins.update(p.accountId, id, command, p.login);
  }

  @ApiRoute(ADMIN_DOCS.delete)
  @Delete(':id')
  @JournaledChange('Employee', 'Delete', { fromRequest: journalPathAdmin })
  delete(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseAdminPath) id: RecordId): Promise<void> {
    return this.admins.delete(p.accountId, id);
  }
}
