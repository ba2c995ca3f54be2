import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  Clock,
  CONSOLE_SECOND_FACTOR_FAILURES,
  CONSOLE_SIGN_IN_CODE_ATTEMPTS,
  CONSOLE_SIGN_IN_CODE_MS,
  CONSOLE_TEMPORARY_LOCK_MS,
  DEFAULT_MAIL_LANGUAGE,
  MailLanguage,
  OTP_TOKEN_DIGITS,
  PRODUCT_NAME,
  TOTP_WINDOW_STEPS,
} from '@twofold/domain';
import { JournalWriter } from '@twofold/journal';
import { verifyTotp } from '@twofold/otp';
import { ConsoleAdministrator, ConsoleRepository, Db, SecretCipher } from '@twofold/persistence';
import { AppConfig } from '../config/app-config';
import { UnauthorizedWithoutChallenge } from '../http/api-errors';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';
import { consoleSignInMail } from '../mail/messages';
import { Mailer, MAILER } from '../mail/mailer';
import { ConsoleSessions, NewConsoleSession } from './console-sessions';
import { hashSignInCode, newSignInCodeHash, newSignInCode, sameHash, SIGN_IN_CODE_PATTERN } from './console-secrets';

/** Open sign-ins one administrator may have at once: more starts mail nothing (no mail bombing). */
export const CONSOLE_OPEN_SIGN_INS_PER_ADMIN = 3;

/** One answer for every refusal of the codes, so a caller learns nothing about which factor was wrong. */
export class ConsoleSignInRefused extends UnauthorizedWithoutChallenge {
  constructor() {
    super('The codes are wrong or have expired.');
  }
}

export class ConsoleSignInNotAllowed extends HttpException {
  constructor() {
    super('This administrator cannot sign in now. Ask another administrator of the account.', HttpStatus.FORBIDDEN);
  }
}

export interface SignInFinish {
  email: string;
  emailCode: string;
  secondFactorCode: string;
  address: string | null;
}

/**
 * Signing in to the console takes two factors: a single-use code mailed to the administrator's
 * e-mail, then the second factor their invitation set up. Each finished sign-in, and each refusal
 * past the mailed code, is journaled `AdminPanel SignIn` in the administrator's account; five wrong
 * second factors in a row make the administrator TemporaryLocked for 15 minutes.
 */
@Injectable()
export class ConsoleSignInService {
  constructor(
    private readonly db: Db,
    private readonly consoleRows: ConsoleRepository,
    private readonly cipher: SecretCipher,
    private readonly journal: JournalWriter,
    private readonly sessions: ConsoleSessions,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Mails a code to each account where `email` is an administrator who may sign in. The caller always
   * gets the same answer: the console tells nobody which e-mails are administrators.
   */
  async start(email: string, language: MailLanguage | null): Promise<void> {
    const now = this.clock.now();
    for (const admin of await this.consoleRows.administratorsByEmail(email)) {
      const state = await this.signInState(admin, now);
      if (state !== 'Active') continue;
      const open = await this.consoleRows.openSignIns(admin.identity, CONSOLE_SIGN_IN_CODE_ATTEMPTS, now);
      if (open.filter((row) => row.administratorId === admin.id).length >= CONSOLE_OPEN_SIGN_INS_PER_ADMIN) continue;
      const code = newSignInCode();
      await this.db.transaction(async () => {
        await this.consoleRows.insertSignIn(
          admin.accountId,
          admin.id,
          newSignInCodeHash(code),
          new Date(now.getTime() + CONSOLE_SIGN_IN_CODE_MS),
          now,
        );
        // in the transaction: a mail that cannot be sent leaves no sign-in behind
        await this.mailer.send({
          to: admin.identity,
          ...consoleSignInMail({
            brand: admin.accountDisplayName ?? PRODUCT_NAME,
            language: language ?? admin.mailLanguage ?? DEFAULT_MAIL_LANGUAGE,
            code,
            url: `${this.config.publicUrl}/console/#code=${code}&email=${encodeURIComponent(admin.identity)}`,
            ttlMinutes: CONSOLE_SIGN_IN_CODE_MS / 60_000,
          }),
        });
      });
    }
  }

  /** Both codes right: a new session. The mailed code is spent only then, so a mistyped second factor can be typed again. */
  async finish(input: SignInFinish): Promise<NewConsoleSession & { administrator: ConsoleAdministrator }> {
    const now = this.clock.now();
    if (!SIGN_IN_CODE_PATTERN.test(input.emailCode)) throw new ConsoleSignInRefused();
    const open = await this.consoleRows.openSignIns(input.email, CONSOLE_SIGN_IN_CODE_ATTEMPTS, now);
    // every open sign-in is compared, so the time taken does not tell which one matched
    let matched: (typeof open)[number] | undefined;
    for (const row of open) {
      if (sameHash(hashSignInCode(row.salt, input.emailCode), row.codeHash) && !matched) matched = row;
    }
    if (!matched) {
      await this.consoleRows.recordWrongCode(open.map((row) => row.id));
      throw new ConsoleSignInRefused();
    }
    const admin = await this.consoleRows.administratorById(matched.accountId, matched.administratorId);
    if (!admin || (await this.signInState(admin, now)) !== 'Active') {
      if (admin) await this.record(admin, false, input.address, { Reason: admin.status });
      throw new ConsoleSignInNotAllowed();
    }
    const timeStep = await this.secondFactorStep(admin, input.secondFactorCode, now);
    const accepted = timeStep !== null && (await this.consoleRows.recordSecondFactorSuccess(admin.accountId, admin.id, timeStep, now));
    if (!accepted) {
      await this.secondFactorFailed(admin, input.address, now);
      throw new ConsoleSignInRefused();
    }
    return this.db.transaction(async () => {
      if (!(await this.consoleRows.useSignIn(matched.id, now))) throw new ConsoleSignInRefused();
      const session = await this.sessions.open(admin, 'Totp', input.address, now);
      await this.record(admin, true, input.address);
      return { ...session, administrator: admin };
    });
  }

  /** The administrator's status for signing in, a TemporaryLocked whose time has run out being Active again. */
  private async signInState(admin: ConsoleAdministrator, now: Date): Promise<string> {
    if (admin.status === 'TemporaryLocked' && admin.temporaryLockedUntil && admin.temporaryLockedUntil <= now) {
      await this.consoleRows.endTemporaryLock(admin.accountId, admin.id, now);
      return 'Active';
    }
    return admin.status;
  }

  private async secondFactorStep(admin: ConsoleAdministrator, code: string, now: Date): Promise<number | null> {
    if (!/^[0-9]{6}$/.test(code)) return null;
    const secretEnc = await this.consoleRows.secondFactorSecret(admin.accountId, admin.id);
    if (!secretEnc) return null;
    const secret = this.cipher.decrypt('authenticator.secret', secretEnc);
    const result = verifyTotp({ secret, code, time: now.getTime(), window: TOTP_WINDOW_STEPS, digits: OTP_TOKEN_DIGITS });
    return result.valid ? result.timeStep : null;
  }

  private async secondFactorFailed(admin: ConsoleAdministrator, address: string | null, now: Date): Promise<void> {
    const lockedUntil = new Date(now.getTime() + CONSOLE_TEMPORARY_LOCK_MS);
    await this.db.transaction(async () => {
      const { locked } = await this.consoleRows.recordSecondFactorFailure(
        admin.accountId,
        admin.id,
        CONSOLE_SECOND_FACTOR_FAILURES,
        lockedUntil,
      );
      await this.record(admin, false, address, { Reason: 'WrongSecondFactor' });
      if (locked) {
        await this.sessions.endAllOf(admin.accountId, admin.id, now);
        await this.journal.record(admin.accountId, {
          object: 'Employee',
          action: 'Lock',
          subject: admin.identity,
          success: true,
          additionalFields: {
            EmployeeId: admin.id,
            EmployeeIdentity: admin.identity,
            Reason: 'TemporaryLocked',
            LockedUntil: lockedUntil.toISOString(),
          },
        });
      }
    });
  }

  private record(admin: ConsoleAdministrator, success: boolean, address: string | null, extra: Record<string, string> = {}): Promise<void> {
    return this.journal.record(admin.accountId as AccountId, {
      object: 'AdminPanel',
      action: 'SignIn',
      subject: admin.identity,
      success,
      additionalFields: {
        EmployeeId: admin.id,
        EmployeeIdentity: admin.identity,
        '2FAMethod': 'Totp',
        ...(address ? { UserIp: address } : {}),
        ...extra,
      },
    });
  }
}
