import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ADMIN_ROLES, ADMIN_STATUSES } from '@twofold/domain';
import { AdministratorEntity } from '@twofold/persistence';

/*
 * The answers of the administrator API, each declared once: the class is the TypeScript type the
 * service returns and, through its @ApiProperty decorators, the OpenAPI schema (named by @ApiSchema).
 */

/** An administrator in lists; lastLoginDate is absent when there is none. */
@ApiSchema({ name: 'Administrator' })
export class AdminDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'the e-mail given at registration' }) identity!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ADMIN_STATUSES }) status!: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...ADMIN_ROLES] } }) roles!: string[];
  @ApiProperty({ format: 'date-time' }) registrationDate!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'absent when the administrator never signed in' }) lastLoginDate?: string;
}

/** The registration answer: the same data, the roles named `appRoles`. */
@ApiSchema({ name: 'RegisteredAdministrator' })
export class RegisteredAdminDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() identity!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ADMIN_STATUSES }) status!: string;
  @ApiProperty({ format: 'date-time' }) registrationDate!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastLoginDate!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...ADMIN_ROLES] } }) appRoles!: string[];
}

export function toAdminDto(admin: AdministratorEntity): AdminDto {
  const dto: AdminDto = {
    id: admin.id,
    identity: admin.identity,
    name: admin.name,
    status: admin.status,
    roles: [admin.role],
    registrationDate: admin.registrationDate.toISOString(),
  };
  if (admin.lastLoginDate) dto.lastLoginDate = admin.lastLoginDate.toISOString();
  return dto;
}

/** `GET /admins?identity=`: the single object, without lastLoginDate, as clients expect it. */
export function toFoundAdminDto(admin: AdministratorEntity): AdminDto {
  const dto = toAdminDto(admin);
  delete dto.lastLoginDate;
  return dto;
}

export function toRegisteredAdminDto(admin: AdministratorEntity): RegisteredAdminDto {
  return {
    id: admin.id,
    identity: admin.identity,
    name: admin.name,
    status: admin.status,
    registrationDate: admin.registrationDate.toISOString(),
    lastLoginDate: admin.lastLoginDate ? admin.lastLoginDate.toISOString() : null,
    appRoles: [admin.role],
  };
}
