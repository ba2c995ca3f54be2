import { createHmac, KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock, CONSOLE_SESSION_ABSOLUTE_MS, CONSOLE_SESSION_IDLE_MS, IdentityFormat } from '@twofold/domain';
import { ConsoleRepository, ConsoleSessionRow } from '@twofold/persistence';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';
import { purposeKey } from '../config/purpose-keys';
import { hashConsoleToken, newConsoleToken, sameHash } from './console-secrets';

/** What the browser gets at sign-in: the session id for the cookie and the CSRF token for the header. */
export interface NewConsoleSession {
  token: string;
  csrfToken: string;
}

/** A session's last request is written at most this often: the idle timeout needs no finer grain. */
const TOUCH_EVERY_MS = 60_000;

/** Why a session does not authenticate a request; all of them are the same 401 to the caller. */
export type ConsoleSessionRefusal = 'unknown' | 'expired' | 'idle' | 'notActive' | 'csrf';

export interface ConsoleSession {
  id: string;
  accountId: AccountId;
  administratorId: string;
  identity: string;
  role: string;
  identityFormat: IdentityFormat;
  createdAt: Date;
}

/**
 * Console sessions: opaque random ids held by the browser, their SHA-256 in `console_sessions`. A
 * request authenticates with the cookie AND the session's CSRF token in a header (every method, reads
 * included), within 30 idle minutes and 12 hours of the sign-in, while its administrator is Active: a
 * lock or a delete ends every session of theirs at the next request.
 *
 * The CSRF token is an HMAC of the session id under a key of its own: nothing to store, and a page
 * the console opens in a new tab gets it again from `GET /console/api/session`, which another site
 * cannot read (no CORS) nor even send the cookie to (SameSite=Strict).
 */
@Injectable()
export class ConsoleSessions {
  private readonly csrfKey: KeyObject;

  constructor(
    private readonly rows: ConsoleRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.csrfKey = purposeKey(config.encryptionKey, 'twofold console csrf token');
  }

  csrfTokenOf(token: string): string {
    return createHmac('sha256', this.csrfKey).update(token, 'utf8').digest('base64url');
  }

  async open(
    admin: { accountId: AccountId; id: string },
    secondFactor: string,
    address: string | null,
    now: Date,
  ): Promise<NewConsoleSession> {
    const token = newConsoleToken();
    const csrfToken = this.csrfTokenOf(token);
    await this.rows.insertSession({
      tokenHash: hashConsoleToken(token),
      accountId: admin.accountId,
      administratorId: admin.id,
      secondFactor,
      address,
      now,
    });
    return { token, csrfToken };
  }

  async authenticate(token: string, csrfToken: string | undefined): Promise<ConsoleSession | ConsoleSessionRefusal> {
    const row = await this.rows.sessionByTokenHash(hashConsoleToken(token));
    if (!row) return 'unknown';
    const now = this.clock.now();
    const refusal = this.refusal(row, now) ?? (this.csrfMatches(token, csrfToken) ? null : 'csrf');
    if (refusal) return refusal;
    if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await this.rows.touchSession(row.id, now);
    return {
      id: row.id,
      accountId: row.accountId,
      administratorId: row.administratorId,
      identity: row.identity,
      role: row.role,
      identityFormat: row.identityFormat as IdentityFormat,
      createdAt: row.createdAt,
    };
  }

  private refusal(row: ConsoleSessionRow, now: Date): ConsoleSessionRefusal | null {
    if (now.getTime() - row.createdAt.getTime() >= CONSOLE_SESSION_ABSOLUTE_MS) return 'expired';
    if (now.getTime() - row.lastSeenAt.getTime() >= CONSOLE_SESSION_IDLE_MS) return 'idle';
    if (row.status !== 'Active') return 'notActive';
    return null;
  }

  private csrfMatches(token: string, csrfToken: string | undefined): boolean {
    return csrfToken !== undefined && sameHash(Buffer.from(this.csrfTokenOf(token)), Buffer.from(csrfToken));
  }

  /** The session of a cookie alone (no CSRF token yet): for `GET /console/api/session` to hand the token out. */
  async withoutCsrf(token: string): Promise<ConsoleSession | ConsoleSessionRefusal> {
    return this.authenticate(token, this.csrfTokenOf(token));
  }

  async end(sessionId: string): Promise<void> {
    await this.rows.revokeSession(sessionId, this.clock.now());
  }

  endAllOf(accountId: AccountId, administratorId: string, now: Date): Promise<number> {
    return this.rows.revokeSessionsOf(accountId, administratorId, now);
  }
}
