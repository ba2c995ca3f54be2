import { Injectable } from '@nestjs/common';
import { AccountId, OTP_TOKEN_DIGITS, TOTP_WINDOW_STEPS } from '@twofold/domain';
import { JournalField, JournalWriter, JournalFields } from '@twofold/journal';
import { generateOtpauthUri, generateSecret, toBase32, verifyTotp } from '@twofold/otp';
import { AuthenticatorsRepository, SecretCipher } from '@twofold/persistence';
import { toString as qrSvg } from 'qrcode';

/** The issuer an authenticator app shows, and the name of the `Totp` authenticator it becomes. */
export const ISSUER = 'Twofold';
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

  async setup(pendingSecretEnc: Buffer, account: string): Promise<AuthenticatorAppSetup> {
    const secret = this.cipher.decrypt('authenticator.secret', pendingSecretEnc);
    const otpauthUri = generateOtpauthUri({ type: 'totp', issuer: ISSUER, account, secret });
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
      name: ISSUER,
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
