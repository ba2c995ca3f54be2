import { Controller, Delete, Get, HttpCode, HttpStatus, Post, Put, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { journalNewUserIdentity, journalPathUser } from './users.journal';
import { Input } from '../http/parsed-input';
import { RecordId } from '@twofold/domain';
import {
  CreateUserCommand,
  EnrollCommand,
  ListUsersQuery,
  parseCreateUser,
  parseEnroll,
  parseListUsersQuery,
  parseUpdateUser,
  parseUserPath,
  UpdateUserCommand,
} from './users.commands';
import { CreatedUserDto, EnrollmentLinkDto, UserDto, UsersCountDto } from './users.dto';
import { UsersService } from './users.service';
import { JournaledChange } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { USER_DOCS } from './users.openapi';

/** The user API, the V1 generation: paths without a version prefix (and with /v1). Every call answers 200. */
@ModelEnvelopeErrors()
@Controller({ path: 'users', version: [VERSION_NEUTRAL, '1'] })
@UseGuards(AccountAuthGuard)
@ApiFeature('Users')
@ApiAccountAuth('model')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @ApiRoute(USER_DOCS.count)
  @Get('count')
  async count(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<UsersCountDto>> {
    return ok(await this.users.count(p.accountId));
  }

  @ApiRoute(USER_DOCS.list)
  @Get()
  async list(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('query', parseListUsersQuery) query: ListUsersQuery,
  ): Promise<ModelEnvelope<UserDto[]>> {
    return ok(await this.users.list(p.accountId, query));
  }

  @ApiRoute(USER_DOCS.create)
  @Post()
  @HttpCode(HttpStatus.OK)
  @JournaledChange('User', 'Create', { fromRequest: journalNewUserIdentity })
  async create(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseCreateUser) command: CreateUserCommand,
  ): Promise<ModelEnvelope<CreatedUserDto>> {
    return ok(await this.users.create(p, command));
  }

  @ApiRoute(USER_DOCS.updateV1)
  @Put(':id')
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parseUpdateUser) command: UpdateUserCommand,
  ): Promise<ModelEnvelope<UserDto>> {
    return ok(await this.users.updateV1(p.accountId, id, command));
  }

  @ApiRoute(USER_DOCS.delete)
  @Delete(':id')
  @JournaledChange('User', 'Delete', { fromRequest: journalPathUser })
  async delete(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseUserPath) id: RecordId): Promise<ModelEnvelope<null>> {
    await this.users.delete(p.accountId, id);
    return ok(null, 'User deleted.');
  }

  @ApiRoute(USER_DOCS.enroll)
  @Post(':id/enroll')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('EnrollmentLink', 'Send', { fromRequest: journalPathUser })
  async enroll(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parseEnroll) command: EnrollCommand,
  ): Promise<ModelEnvelope<EnrollmentLinkDto>> {
    const link = await this.users.enroll(p.accountId, id, command);
    return ok(link, link.url ? 'Enrollment link created.' : 'Enrollment link sent.');
  }
}
