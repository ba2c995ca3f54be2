import { Inject, Injectable } from '@nestjs/common';
import { Clock, enrollmentTokenState, PRODUCT_NAME } from '@twofold/domain';
import { JournalWriter } from '@twofold/journal';
import {
  AccountsRepository,
  AdministratorsRepository,
  Db,
  EnrollmentTokenEntity,
  EnrollmentTokensRepository,
  UserEntity,
} from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { AppMetrics } from '../metrics/app-metrics';
import { AuthenticatorAppEnrollment } from './authenticator-app';
import { hashEnrollmentToken } from './enrollment-links.service';
import { EnrollmentPageForm } from './enrollment-page.form';
import { EnrollmentFormModel, GoneReason } from './enrollment-page.view';
import { TelegramSectionModel } from '../pages/telegram-section';
import { TelegramEnrollment } from '../telegram/telegram-enrollment';
import { MobileAppEnrollment } from '../mobile-app/mobile-app-enrollment';
import { MobileAppSectionModel } from '../pages/mobile-app-section';
import { StandbyCodesService } from '../standby-codes/standby-codes.service';

/** Wrong codes allowed on one link before it is revoked. */
export const ENROLLMENT_MAX_FAILED_CODES = 5;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What the page shows, under `brand`: the display name of the link's account, the product's name for an unknown link. */
export type EnrollmentOutcome = { brand: string } &
  /** `telegram`: a Telegram chat offered beside the app, when a bot is configured and the link is a user's */
  /** `mobileApp`: the Twofold Authenticator app offered too, for a user's link, unless MOBILE_APP_OFFER turns it off */
  (| { kind: 'form'; model: EnrollmentFormModel; telegram?: TelegramSectionModel; mobileApp?: MobileAppSectionModel }
    /** `recoveryCodes`: made with a user's enrollment when they had none left, shown this once */
    | { kind: 'done'; recoveryCodes?: string[] }
    | { kind: 'gone'; reason: GoneReason }
  );

type Usable = { row: EnrollmentTokenEntity; holder: Holder; brand: string };

interface Holder {
  identity: string;
  name: string;
}

/**
 * The enrollment page behind `$ACCESS_URL/enroll/<token>`: shows a new authenticator-app
 * secret, and on the first valid code makes it the person's second factor: a `Totp` authenticator for
 * a user, the activation of an administrator.
 */
@Injectable()
export class EnrollmentPageService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsRepository,
    private readonly tokens: EnrollmentTokensRepository,
    private readonly administrators: AdministratorsRepository,
    private readonly authenticatorApp: AuthenticatorAppEnrollment,
    private readonly journal: JournalWriter,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: AppMetrics,
    private readonly telegram: TelegramEnrollment,
    private readonly mobileApp: MobileAppEnrollment,
    private readonly standbyCodes: StandbyCodesService,
  ) {}

  /** Whether the Telegram link `linkId` this page offered has bound the link's user's chat. */
  async telegramBound(token: string, linkId: string): Promise<boolean | 'unknown'> {
    const found = await this.usableToken(token);
    if ('reason' in found) return found.reason === 'unknown' ? 'unknown' : false;
    return this.telegram.bound(found.row.accountId, found.row.userId, linkId);
  }

  /** A single-use Telegram link for the user of the enrollment link, expiring with it. */
  private async telegramOffer(token: string, { row }: Usable): Promise<TelegramSectionModel | undefined> {
    if (!row.userId) return undefined;
    const offer = await this.telegram.offer(row.accountId, row.userId, row.expiresAt);
    return offer ? { url: offer.url, qrSvg: offer.qrSvg, statePath: `${token}/telegram?link=${offer.linkId}` } : undefined;
  }

  /** Whether the app token `tokenId` this page offered has enrolled a device of the link's user. */
  async mobileAppEnrolled(token: string, tokenId: string): Promise<boolean | 'unknown'> {
    const found = await this.usableToken(token);
    if ('reason' in found) return found.reason === 'unknown' ? 'unknown' : false;
    return this.mobileApp.enrolled(found.row.accountId, found.row.userId, tokenId);
  }

  /** A single-use app enrollment token for the user of the enrollment link, expiring with it. */
  private async mobileAppOffer(token: string, { row }: Usable): Promise<MobileAppSectionModel | undefined> {
    if (!row.userId) return undefined;
    const offer = await this.mobileApp.offer(row.accountId, row.userId, row.expiresAt);
    return offer ? { url: offer.url, qrSvg: offer.qrSvg, statePath: `${token}/mobile-app?token=${offer.tokenId}` } : undefined;
  }

  async show(token: string): Promise<EnrollmentOutcome> {
    const found = await this.usableToken(token);
    if ('reason' in found) return { kind: 'gone', ...found };
    const telegram = await this.telegramOffer(token, found);
    const mobileApp = await this.mobileAppOffer(token, found);
    return {
      kind: 'form',
      brand: found.brand,
      model: await this.formModel(found),
      ...(telegram ? { telegram } : {}),
      ...(mobileApp ? { mobileApp } : {}),
    };
  }

  async submit(token: string, form: EnrollmentPageForm): Promise<EnrollmentOutcome> {
    const found = await this.usableToken(token);
    if ('reason' in found) return { kind: 'gone', ...found };
    const { row, holder, brand } = found;
    const pendingSecretEnc = row.pendingSecretEnc;
    if (!pendingSecretEnc) return { kind: 'form', brand, model: await this.formModel(found) };
    const now = this.clock.now();
    const spentTimeStep = this.authenticatorApp.verify(pendingSecretEnc, form.code, now);
    if (spentTimeStep === null) {
      this.metrics.otpVerification('enrollment', 'wrong');
      const failures = await this.tokens.recordFailedAttempt(row.accountId, row.id, ENROLLMENT_MAX_FAILED_CODES, now);
      if (failures >= ENROLLMENT_MAX_FAILED_CODES) {
        this.metrics.lockout('enrollment', 'request');
        return { kind: 'gone', brand, reason: 'revoked' };
      }
      return {
        kind: 'form',
        brand,
        model: { ...(await this.formModel(found)), error: { attemptsLeft: ENROLLMENT_MAX_FAILED_CODES - failures } },
      };
    }
    let recoveryCodes: string[] | null = null;
    const completed = await this.db.transaction(async () => {
      if (!(await this.tokens.markUsed(row.accountId, row.id, now))) return false;
      if (row.administratorId) {
        await this.administrators.completeEnrollment(row.accountId, row.administratorId, pendingSecretEnc, now);
        await this.journal.record(row.accountId, {
          object: 'Employee',
          action: 'Update',
          subject: holder.identity,
          success: true,
          additionalFields: { EmployeeId: row.administratorId, '2FAMethod': 'Totp' },
        });
      } else if (row.userId) {
        await this.authenticatorApp.complete(
          row.accountId,
          { id: row.userId, identity: holder.identity },
          pendingSecretEnc,
          spentTimeStep,
          now,
        );
        // the way back in when this phone is lost: made now, while the user has the page in front of them
        recoveryCodes = await this.standbyCodes.recoveryCodesForUser(
          row.accountId,
          { id: row.userId, identity: holder.identity },
          'enrollment',
          { onlyIfNone: true },
        );
      }
      return true;
    });
    // a valid code that lost the race for the single-use link to another submission
    this.metrics.otpVerification('enrollment', completed ? 'granted' : 'replayed');
    if (!completed) return { kind: 'gone', brand, reason: 'used' };
    return { kind: 'done', brand, ...(recoveryCodes ? { recoveryCodes } : {}) };
  }

  private async usableToken(token: string): Promise<Usable | { reason: GoneReason; brand: string }> {
    const unknown = { reason: 'unknown', brand: PRODUCT_NAME } as const;
    if (!TOKEN_PATTERN.test(token)) return unknown;
    const row = await this.tokens.findByTokenHash(hashEnrollmentToken(token));
    if (!row) return unknown;
    const brand = (await this.accounts.displayNameOf(row.accountId)) ?? PRODUCT_NAME;
    const state = enrollmentTokenState(row, this.clock.now());
    if (state !== 'valid') return { reason: state, brand };
    const holder = await this.holderOf(row);
    return holder ? { row, holder, brand } : unknown;
  }

  private async holderOf(row: EnrollmentTokenEntity): Promise<Holder | null> {
    if (row.administratorId) {
      const admin = await this.administrators.findById(row.accountId, row.administratorId);
      return admin ? { identity: admin.identity, name: admin.name } : null;
    }
    const user = row.userId
      ? await this.db.manager().getRepository(UserEntity).findOneBy({ accountId: row.accountId, id: row.userId })
      : null;
    return user ? { identity: user.identity, name: user.name ?? user.identity } : null;
  }

  /** The authenticator-app entry is issued by the account's display name: the user sees which company it is for. */
  private async formModel({ row, holder, brand }: Usable): Promise<EnrollmentFormModel> {
    if (!row.pendingSecretEnc) {
      await this.tokens.setPendingSecretOnce(row.accountId, row.id, this.authenticatorApp.newPendingSecret());
      row = (await this.tokens.findByTokenHash(row.tokenHash)) as EnrollmentTokenEntity;
    }
    return {
      holder: holder.name,
      linkExpiresAt: row.expiresAt,
      ...(await this.authenticatorApp.setup(row.pendingSecretEnc as Buffer, { issuer: brand, account: holder.identity })),
    };
  }
}
