import { Controller, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { AdminsService } from './admins.service';
import { Input } from '../http/parsed-input';
import { parseAdminPath } from './admins.commands';
import { RecordId } from '@twofold/domain';
import { JournaledChange } from '../http/transactional';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { ADMIN_DOCS } from './admins.openapi';

/** The V2 invitation re-send takes the id in the path. */
@Controller({ path: 'admins', version: '2' })
@UseGuards(AccountAuthGuard)
@ApiFeature('Administrators')
@ApiAccountAuth('plain')
export class AdminsV2Controller {
  constructor(private readonly admins: AdminsService) {}

  @ApiRoute(ADMIN_DOCS.resendInvitationV2)
  @Post('resend-invitation-email/:id')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('EnrollmentLink', 'Send')
  resendInvitation(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseAdminPath) id: RecordId): Promise<void> {
    return this.admins.resendInvitation(p.accountId, id);
  }
}
