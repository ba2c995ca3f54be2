import { AccessRequestStatusName, effectiveAccessStatus } from '@twofold/domain';
import { AccessRequestEntity } from '@twofold/persistence';

/** The history item of SPEC.md, camelCase; geo fields are null (no geo database is configured). */
export interface AccessRequestDto {
  id: string;
  identity: string;
  status: AccessRequestStatusName;
  resourceName: string | null;
  createdAt: string;
  grantedAt: string | null;
  authenticator: string | null;
  countryCode: string | null;
  region: string | null;
  city: string | null;
  remoteHost: string | null;
  ip: string | null;
  twoFADeviceIp: string | null;
}

export interface CreatedAccessRequestDto {
  id: string;
  url: string;
  status: AccessRequestStatusName;
}

export interface PassCodeResultDto {
  id: string;
  identity: string;
  status: AccessRequestStatusName;
  authenticator: string | null;
  replyMessage: string;
}

export function toAccessRequestDto(row: AccessRequestEntity, resourceName: string | null, now: Date): AccessRequestDto {
  return {
    id: row.id,
    identity: row.identity,
    status: effectiveAccessStatus(row, now),
    resourceName,
    createdAt: row.createdAt.toISOString(),
    grantedAt: row.grantedAt ? row.grantedAt.toISOString() : null,
    authenticator: row.authenticator,
    countryCode: row.countryCode,
    region: row.region,
    city: row.city,
    remoteHost: row.remoteHost,
    ip: row.ip,
    twoFADeviceIp: row.twoFADeviceIp,
  };
}
