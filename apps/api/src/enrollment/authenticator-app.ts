import { Injectable } from '@nestjs/common';
import { AccountId, OTP_TOKEN_DIGITS, PRODUCT_NAME, TOTP_WINDOW_STEPS } from '@twofold/domain';
import { JournalField, JournalWriter, JournalFields } from '@twofold/journal';
import { generateOtpauthUri, generateSecret, toBase32, verifyTotp } from '@twofold/otp';
import { AuthenticatorsRepository, SecretCipher } from '@twofold/persistence';
import { toString as qrSvg } from 'qrcode';

/**
 * The name of the `Totp` authenticator an app's enrollment becomes (what administrators see in the
 * user's list); the issuer the app shows is the account's display name instead.
 */
export const AUTHENTICATOR_APP_NAME = PRODUCT_NAME;
/** RFC 4226 recommends 160-bit secrets for HMAC-SHA-1. */
const AUTHENTICATOR_APP_SECRET_BYTES = 20;

/** What the enrollment view shows of a pending secret. */
export interface AuthenticatorAppSetup {
  secretBase32: string;
  otpauthUri: string;
  qrSvg: string;
}

/**
 * Enrollment of an authenticator app, the same on the enrollment page (links, invitations) and the
 * access page: a pending secret kept encrypted server-side, its QR/Base32/otpauth view, and on the
 * first valid code the user's `Totp` authenticator with that time step already spent.
 */
@Injectable()
export class AuthenticatorAppEnrollment {
  constructor(
    private readonly authenticators: AuthenticatorsRepository,
    private readonly cipher: SecretCipher,
    private readonly journal: JournalWriter,
  ) {}

  /** A new secret, encrypted for storing as the pending one. */
  newPendingSecret(): Buffer {
    return this.cipher.encrypt('authenticator.secret', generateSecret({ bytes: AUTHENTICATOR_APP_SECRET_BYTES }));
  }

  /**
   * `issuer` is the account's display name: the app lists the entry as "issuer: account" (the label
   * and the `issuer` parameter, percent-encoded by generateOtpauthUri), so each customer's users see
   * the customer's name, not the product's.
   */
  async setup(pendingSecretEnc: Buffer, entry: { issuer: string; account: string }): Promise<AuthenticatorAppSetup> {
    const secret = this.cipher.decrypt('authenticator.secret', pendingSecretEnc);
    const otpauthUri = generateOtpauthUri({ type: 'totp', issuer: entry.issuer, account: entry.account, secret });
    return {
      secretBase32: toBase32(secret),
      otpauthUri,
      qrSvg: await qrSvg(otpauthUri, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' }),
    };
  }

  /** The time step a code of the pending secret matches (±1 step), or null. */
  verify(pendingSecretEnc: Buffer, code: string, now: Date): number | null {
    const secret = this.cipher.decrypt('authenticator.secret', pendingSecretEnc);
    const result = verifyTotp({ secret, code, time: now.getTime(), window: TOTP_WINDOW_STEPS, digits: OTP_TOKEN_DIGITS });
    return result.valid ? result.timeStep : null;
  }

  /**
   * The user's `Totp` authenticator from the pending secret, journaled as `User Update` with
   * `2FAMethod: Totp`. The enrolling code's step is spent: it cannot be replayed to sign in.
   */
  async complete(
    accountId: AccountId,
    user: { id: string; identity: string },
    pendingSecretEnc: Buffer,
    spentTimeStep: number,
    now: Date,
    journalFields: JournalFields = {},
  ): Promise<void> {
    await this.authenticators.insert(accountId, {
      userId: user.id,
      kind: 'Totp',
      name: AUTHENTICATOR_APP_NAME,
      secretEnc: pendingSecretEnc,
      privateIdEnc: null,
      algorithm: 'SHA1',
      digits: OTP_TOKEN_DIGITS,
      hotpCounter: null,
      lastTimeStep: String(spentTimeStep),
      createdAt: now,
    });
    await this.journal.record(accountId, {
      object: 'User',
      action: 'Update',
      subject: user.identity,
      success: true,
      additionalFields: {
        UserId: user.id,
        [JournalField.userIdentity]: user.identity,
        [JournalField.twoFactorMethod]: 'Totp',
        ...journalFields,
      },
    });
  }
}
