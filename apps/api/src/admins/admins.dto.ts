import { AdministratorEntity } from '@twofold/persistence';

/** An administrator in lists (SPEC.md "Administrator"); lastLoginDate is absent when there is none. */
export interface AdminDto {
  id: string;
  identity: string;
  name: string;
  status: string;
  roles: string[];
  registrationDate: string;
  lastLoginDate?: string;
}

/** The registration response: the same data, the roles named appRoles (SPEC.md). */
export interface RegisteredAdminDto {
  id: string;
  identity: string;
  name: string;
  status: string;
  registrationDate: string;
  lastLoginDate: string | null;
  appRoles: string[];
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

/** `GET /admins?identity=`: the single object, without lastLoginDate, as SPEC.md's example shows it. */
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
