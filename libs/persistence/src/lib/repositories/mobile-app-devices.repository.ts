import { AccountId } from '@twofold/domain';
import { Db } from '../transaction-context';

/** A Web Push subscription as the device's browser made it (RFC 8030 endpoint, RFC 8291 keys). */
export interface PushSubscriptionKeys {
  endpoint: string;
  /** the browser's P-256 public key, base64url */
  p256dh: string;
  /** the 16-byte authentication secret, base64url */
  auth: string;
}

/** The device of a `MobileApp` authenticator, with what its authenticator says about it now. */
export interface MobileAppDevice {
  authenticatorId: string;
  accountId: AccountId;
  userId: string;
  /** SPKI DER of the device's P-256 key */
  publicKey: Buffer;
  lastCounter: number;
  subscription: PushSubscriptionKeys | null;
  /** an administrator disabled the authenticator: it is asked nothing and decides nothing */
  disabled: boolean;
  /** its push service refused the last subscription for good (404/410): the app is likely gone from the phone */
  pushGone: boolean;
}

export interface MobileAppEnrollmentToken {
  id: string;
  accountId: AccountId;
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
  authenticatorId: string | null;
}

interface DeviceRow {
  authenticatorId: string;
  accountId: AccountId;
  userId: string;
  publicKey: Buffer;
  lastCounter: string;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  disabled: boolean;
  pushGone: boolean;
}

const DEVICE_COLUMNS = `d.authenticator_id AS "authenticatorId", d.account_id AS "accountId", a.user_id AS "userId",
  d.public_key AS "publicKey", d.last_counter::text AS "lastCounter", d.push_endpoint AS endpoint,
  d.push_p256dh AS p256dh, d.push_auth AS auth, a.disabled, d.push_gone AS "pushGone"`;

function deviceOf(row: DeviceRow): MobileAppDevice {
  return {
    authenticatorId: row.authenticatorId,
    accountId: row.accountId,
    userId: row.userId,
    publicKey: row.publicKey,
    lastCounter: Number(row.lastCounter),
    subscription: row.endpoint && row.p256dh && row.auth ? { endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth } : null,
    disabled: row.disabled,
    pushGone: row.pushGone,
  };
}

/** Devices of the service's authenticator app, the tokens that enroll them, and the service's VAPID keys. */
export class MobileAppDevicesRepository {
  constructor(private readonly db: Db) {}

  private query<T>(sql: string, params: unknown[]): Promise<T> {
    return this.db.manager().query(sql, params);
  }

  async insertToken(
    accountId: AccountId,
    values: { userId: string; tokenHash: Buffer; createdAt: Date; expiresAt: Date },
  ): Promise<MobileAppEnrollmentToken> {
    const rows: MobileAppEnrollmentToken[] = await this.query(
      `INSERT INTO mobile_app_enrollment_tokens (account_id, user_id, token_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5)
       RETURNING id, account_id AS "accountId", user_id AS "userId", expires_at AS "expiresAt", used_at AS "usedAt",
                 authenticator_id AS "authenticatorId"`,
      [accountId, values.userId, values.tokenHash, values.createdAt, values.expiresAt],
    );
    return rows[0];
  }

  /** The device's lookup: the token is all it brings, so this one is not scoped by account. */
  async findTokenByHash(tokenHash: Buffer): Promise<MobileAppEnrollmentToken | null> {
    const rows: MobileAppEnrollmentToken[] = await this.query(
      `SELECT id, account_id AS "accountId", user_id AS "userId", expires_at AS "expiresAt", used_at AS "usedAt",
              authenticator_id AS "authenticatorId"
         FROM mobile_app_enrollment_tokens WHERE token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  async findToken(accountId: AccountId, id: string): Promise<MobileAppEnrollmentToken | null> {
    const rows: MobileAppEnrollmentToken[] = await this.query(
      `SELECT id, account_id AS "accountId", user_id AS "userId", expires_at AS "expiresAt", used_at AS "usedAt",
              authenticator_id AS "authenticatorId"
         FROM mobile_app_enrollment_tokens WHERE account_id = $1 AND id = $2`,
      [accountId, id],
    );
    return rows[0] ?? null;
  }

  /** Spends the token unless it was spent or has expired: true for exactly one of parallel callers. */
  async useToken(accountId: AccountId, id: string, at: Date): Promise<boolean> {
    const rows: unknown[] = await this.query(
      `UPDATE mobile_app_enrollment_tokens SET used_at = $3
        WHERE account_id = $1 AND id = $2 AND used_at IS NULL AND expires_at > $3 RETURNING id`,
      [accountId, id, at],
    );
    return updatedOne(rows);
  }

  async setTokenAuthenticator(accountId: AccountId, id: string, authenticatorId: string): Promise<void> {
    await this.query(`UPDATE mobile_app_enrollment_tokens SET authenticator_id = $3 WHERE account_id = $1 AND id = $2`, [
      accountId,
      id,
      authenticatorId,
    ]);
  }

  async insertDevice(
    accountId: AccountId,
    values: { authenticatorId: string; publicKey: Buffer; lastCounter: number; subscription: PushSubscriptionKeys | null; createdAt: Date },
  ): Promise<void> {
    await this.query(
      `INSERT INTO mobile_app_devices (authenticator_id, account_id, public_key, last_counter, push_endpoint, push_p256dh, push_auth, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        values.authenticatorId,
        accountId,
        values.publicKey,
        values.lastCounter,
        values.subscription?.endpoint ?? null,
        values.subscription?.p256dh ?? null,
        values.subscription?.auth ?? null,
        values.createdAt,
      ],
    );
  }

  async hasPublicKey(publicKey: Buffer): Promise<boolean> {
    const rows: unknown[] = await this.query(`SELECT 1 FROM mobile_app_devices WHERE public_key = $1`, [publicKey]);
    return rows.length > 0;
  }

  /** The device of a MobileApp authenticator, or null (not one, or deleted). */
  async deviceOf(accountId: AccountId, authenticatorId: string): Promise<MobileAppDevice | null> {
    const rows: DeviceRow[] = await this.query(
      `SELECT ${DEVICE_COLUMNS}
         FROM mobile_app_devices d JOIN authenticators a ON a.id = d.authenticator_id AND a.account_id = d.account_id
        WHERE d.account_id = $1 AND d.authenticator_id = $2 AND a.kind = 'MobileApp'`,
      [accountId, authenticatorId],
    );
    return rows[0] ? deviceOf(rows[0]) : null;
  }

  /**
   * A signed request names its device only (the signature is checked against that device's key), so
   * this lookup is not scoped by account: the device's own row then scopes everything it may see.
   */
  async deviceById(authenticatorId: string): Promise<MobileAppDevice | null> {
    const rows: DeviceRow[] = await this.query(
      `SELECT ${DEVICE_COLUMNS}
         FROM mobile_app_devices d JOIN authenticators a ON a.id = d.authenticator_id AND a.account_id = d.account_id
        WHERE d.authenticator_id = $1 AND a.kind = 'MobileApp'`,
      [authenticatorId],
    );
    return rows[0] ? deviceOf(rows[0]) : null;
  }

  /** Spends a signature counter: true only when it is greater than every one the device used before (one of parallel equal ones). */
  async spendCounter(accountId: AccountId, authenticatorId: string, counter: number): Promise<boolean> {
    const rows: unknown[] = await this.query(
      `UPDATE mobile_app_devices SET last_counter = $3
        WHERE account_id = $1 AND authenticator_id = $2 AND last_counter < $3 RETURNING authenticator_id`,
      [accountId, authenticatorId, counter],
    );
    return updatedOne(rows);
  }

  async setSubscription(accountId: AccountId, authenticatorId: string, subscription: PushSubscriptionKeys | null): Promise<void> {
    await this.query(
      `UPDATE mobile_app_devices SET push_endpoint = $3, push_p256dh = $4, push_auth = $5, push_gone = false
        WHERE account_id = $1 AND authenticator_id = $2`,
      [accountId, authenticatorId, subscription?.endpoint ?? null, subscription?.p256dh ?? null, subscription?.auth ?? null],
    );
  }

  /** Forgets a subscription the push service refused for good, unless the device has replaced it meanwhile. */
  async dropSubscription(accountId: AccountId, authenticatorId: string, endpoint: string): Promise<void> {
    await this.query(
      `UPDATE mobile_app_devices SET push_endpoint = NULL, push_p256dh = NULL, push_auth = NULL, push_gone = true
        WHERE account_id = $1 AND authenticator_id = $2 AND push_endpoint = $3`,
      [accountId, authenticatorId, endpoint],
    );
  }

  /**
   * The history's `twoFADeviceIp` of a request approved on a device: the address the device's
   * decision came from (a code is typed in the browser; an approval is given elsewhere).
   */
  async recordDeviceAddress(accountId: AccountId, accessRequestId: string, address: string): Promise<void> {
    await this.query(`UPDATE access_requests SET two_fa_device_ip = $3 WHERE account_id = $1 AND id = $2`, [
      accountId,
      accessRequestId,
      address,
    ]);
  }

  /** The service's VAPID key pair, or null before the first start made one. */
  async vapidKeys(): Promise<{ publicKey: string; privateKeyEnc: Buffer } | null> {
    const rows: { publicKey: string; privateKeyEnc: Buffer }[] = await this.query(
      `SELECT public_key AS "publicKey", private_key_enc AS "privateKeyEnc" FROM web_push_vapid_keys WHERE id = 1`,
      [],
    );
    return rows[0] ?? null;
  }

  /** Stores a VAPID key pair unless an instance starting at the same time stored its own first. */
  async insertVapidKeysIfNone(publicKey: string, privateKeyEnc: Buffer, at: Date): Promise<void> {
    await this.query(
      `INSERT INTO web_push_vapid_keys (id, public_key, private_key_enc, created_at) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING`,
      [publicKey, privateKeyEnc, at],
    );
  }
}

/** TypeORM answers an UPDATE … RETURNING on PostgreSQL with [rows, affected count]. */
function updatedOne(result: unknown[]): boolean {
  if (result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[1] === 1;
  return result.length === 1;
}
