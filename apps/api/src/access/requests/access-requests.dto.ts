import { AccessRequestStatusName, effectiveAccessStatus } from '@twofold/domain';
import { AccessHistoryRow } from '@twofold/persistence';

/** A history item, camelCase; geo fields are null (no geo database is configured). */
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
  /** granted without a code: the user's address is on a Bypass IP list */
  bypassed: boolean;
  /** how it came: `page` (the access page), `ra`, `md`, `la` (the LDAP adapter's approvals) */
  channel: string;
}

export interface CreatedAccessRequestDto {
  id: string;
  url: string;
  status: AccessRequestStatusName;
}

export function toAccessRequestDto(row: Omit<AccessHistoryRow, 'resourceName'>, resourceName: string | null, now: Date): AccessRequestDto {
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
    bypassed: row.bypassed,
    channel: row.channel,
  };
}
