import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, Query, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import {
  CreatedUserDto,
  CreateUserRequest,
  EnrollmentLinkDto,
  EnrollRequest,
  UpdateUserRequest,
  UserDto,
  UsersCountDto,
} from './users.dto';
import { UsersService } from './users.service';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { USER_DOCS } from './users.openapi';

/** SPEC.md "Users", the V1 generation: paths without a version prefix (and with /v1). Every call answers 200. */
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
  async list(@CurrentPrincipal() p: AccountPrincipal, @Query() query: Record<string, unknown>): Promise<ModelEnvelope<UserDto[]>> {
    return ok(await this.users.list(p.accountId, query));
  }

  @ApiRoute(USER_DOCS.create)
  @Post()
  @HttpCode(HttpStatus.OK)
  @Journal('User', 'Create')
  async create(@CurrentPrincipal() p: AccountPrincipal, @Body() body: CreateUserRequest): Promise<ModelEnvelope<CreatedUserDto>> {
    return ok(await this.users.create(p, body));
  }

  @ApiRoute(USER_DOCS.updateV1)
  @Put(':id')
  @Journal('User', 'Update')
  async update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: UpdateUserRequest,
  ): Promise<ModelEnvelope<UserDto>> {
    return ok(await this.users.updateV1(p.accountId, id, body));
  }

  @ApiRoute(USER_DOCS.delete)
  @Delete(':id')
  @Journal('User', 'Delete')
  async delete(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<ModelEnvelope<null>> {
    await this.users.delete(p.accountId, id);
    return ok(null, 'User deleted.');
  }

  @ApiRoute(USER_DOCS.enroll)
  @Post(':id/enroll')
  @HttpCode(HttpStatus.OK)
  @Journal('EnrollmentLink', 'Send')
  async enroll(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: EnrollRequest,
  ): Promise<ModelEnvelope<EnrollmentLinkDto>> {
    const link = await this.users.enroll(p.accountId, id, body);
    return ok(link, link.url ? 'Enrollment link created.' : 'Enrollment link sent.');
  }
}
