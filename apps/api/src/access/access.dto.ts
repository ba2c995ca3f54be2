import { AccessRequestStatusName, effectiveAccessStatus, RaStatus } from '@twofold/domain';
import { AccessHistoryRow } from '@twofold/persistence';

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
  /** granted without a code: the user's address is on a Bypass IP list (issue 14) */
  bypassed: boolean;
}

export interface CreatedAccessRequestDto {
  id: string;
  url: string;
  status: AccessRequestStatusName;
}

/**
 * The model of every `ra`-family answer (CONTRACT §8.2), refusals included: clients deserialize each
 * field (a directory server crashes on `model: null`). Unknown values are null; `id` is null only when
 * no request was recorded. Geo fields are null: there is no geo database.
 */
export interface RaModelDto {
  id: string | null;
  identity: string | null;
  status: RaStatus;
  replyMessage: string;
  /** the kind of the authenticator that accepted the code */
  authenticator: string | null;
  authenticatorId: string | null;
  /** the display name of that authenticator (the account it holds, as clients log it) */
  account: string | null;
  /** the user's first stored phone, E.164 */
  phone: string | null;
  bypassed: boolean;
  countryCode: string | null;
  region: string | null;
  city: string | null;
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
  };
}
