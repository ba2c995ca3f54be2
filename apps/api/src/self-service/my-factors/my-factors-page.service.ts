import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock, PRODUCT_NAME } from '@twofold/domain';
import { JournalWriter } from '@twofold/journal';
import {
  AccountsRepository,
  AuthenticatorsRepository,
  Db,
  MyFactorsPageRow,
  SecretCipher,
  SelfServiceRepository,
  StandbyCodesRepository,
  UserEntity,
  UsersRepository,
} from '@twofold/persistence';
import { acceptOtpCode, otpAuthenticators } from '../../access/decision/access-otp';
import { toString as qrSvg } from 'qrcode';
import { CLOCK } from '../../config/injection-tokens';
import { TelegramBindingService } from '../../telegram/telegram-binding.service';
import { TelegramRuntime } from '../../telegram/telegram-runtime';
import { MobileAppEnrollment } from '../../mobile-app/mobile-app-enrollment';
import { MobileAppSectionModel } from '../../pages/mobile-app-section';
import { AuthenticatorAppEnrollment } from '../../enrollment/authenticator-app';
import { EnrollmentFormModel } from '../../pages/enrollment-section';
import { factorCount, portalKindOf } from '../self-service-factors';
import { SelfServiceProfileService } from '../self-service-profile.service';
import { SelfServiceFactorsService } from '../self-service-factors.service';
import { myFactorsTokenHash } from './my-factors-links';
import { MyFactorsFinalReason, MyFactorsNotice } from './my-factors.messages';
import { MyFactorsListModel } from './my-factors.view';
import { RECOVERY_CODES_ACTION } from './my-factors-recovery.view';
import { StandbyCodesService } from '../../standby-codes/standby-codes.service';

/** Wrong codes a page takes before it closes: the same budget as an access request's. */
export const MY_FACTORS_MAX_WRONG_CODES = 5;
/** How long a confirmed code opens changes on the page. */
export const MY_FACTORS_CHECK_MINUTES = 5;
const NAME_MAX_CHARS = 64;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What the browser brought: the page's cookie, and whether the POST came from another site. */
export interface MyFactorsVisitor {
  cookieNonce: string | null;
  foreignOrigin: boolean;
}

export interface MyFactorsForm {
  action: string;
  code: string;
  id: string;
  name: string;
}

export type MyFactorsOutcome = { brand: string; setCookie?: string } & (
  | { kind: 'final'; reason: MyFactorsFinalReason }
  | { kind: 'list'; model: MyFactorsListModel }
  | { kind: 'enroll'; model: EnrollmentFormModel }
  | { kind: 'telegram'; model: { url: string; qrSvg: string } }
  | { kind: 'mobileApp'; model: MobileAppSectionModel }
  /** ten new recovery codes, shown this once */
  | { kind: 'recoveryCodes'; codes: string[] }
);

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * The "my factors" page (`$ACCESS_URL/my-factors/<token>`). Whoever holds the portal's Bearer token
 * (it lives an hour in the portal's cookie) can open such a link, so the page must not let them plant
 * a factor of their own: it is bound to the first browser that opens it (a cookie whose hash the page
 * keeps; the link does nothing in another browser), and every change (add, rename, remove) needs a
 * code of a factor the user already has, confirmed on this page within the last few minutes. A user
 * without any factor may add a first app without one, as the access page enrolls a newcomer. The only
 * factor is never removed.
 */
@Injectable()
export class MyFactorsPageService {
  constructor(
    private readonly db: Db,
    private readonly pages: SelfServiceRepository,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsRepository,
    private readonly authenticators: AuthenticatorsRepository,
    private readonly enrollment: AuthenticatorAppEnrollment,
    private readonly factors: SelfServiceFactorsService,
    private readonly profiles: SelfServiceProfileService,
    private readonly journal: JournalWriter,
    private readonly cipher: SecretCipher,
    private readonly telegram: TelegramBindingService,
    private readonly telegramRuntime: TelegramRuntime,
    private readonly mobileApp: MobileAppEnrollment,
    private readonly standbyCodes: StandbyCodesService,
    private readonly standbyCodeRows: StandbyCodesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The page shown: the first visit binds it to this browser. */
  async show(token: string, visitor: MyFactorsVisitor, cookieOf: (nonce: string) => string): Promise<MyFactorsOutcome> {
    const found = await this.find(token);
    if ('reason' in found) return { kind: 'final', brand: PRODUCT_NAME, reason: found.reason };
    const brand = await this.brandOf(found.page);
    let setCookie: string | undefined;
    if (found.page.browserNonceHash === null) {
      const nonce = randomBytes(16).toString('base64url');
      if (!(await this.pages.bindMyFactorsPage(found.page.accountId, found.page.id, sha256(nonce))))
        return { kind: 'final', brand, reason: 'otherBrowser' };
      setCookie = cookieOf(nonce);
    } else if (!this.sameBrowser(found.page, visitor)) {
      return { kind: 'final', brand, reason: 'otherBrowser' };
    }
    const user = await this.users.findById(found.page.accountId, found.page.userId);
    if (!user) return { kind: 'final', brand, reason: 'unknown' };
    return { kind: 'list', brand, setCookie, model: await this.listModel(found.page, user) };
  }

  /** A form posted: only from the browser the page is bound to, and never from another site. */
  async submit(token: string, visitor: MyFactorsVisitor, form: MyFactorsForm): Promise<MyFactorsOutcome> {
    const found = await this.find(token);
    if ('reason' in found) return { kind: 'final', brand: PRODUCT_NAME, reason: found.reason };
    const brand = await this.brandOf(found.page);
    if (visitor.foreignOrigin) return { kind: 'final', brand, reason: 'forged' };
    if (!this.sameBrowser(found.page, visitor)) return { kind: 'final', brand, reason: 'otherBrowser' };
    return this.db.transaction(async (): Promise<MyFactorsOutcome> => {
      const { page } = found;
      // the user's row lock: two forms at once cannot each remove the other's factor as the last
      const user = await this.users.findByIdForUpdate(page.accountId, page.userId);
      if (!user) return { kind: 'final', brand, reason: 'unknown' };
      const now = this.clock.now();
      const list = async (extra: Partial<MyFactorsListModel> = {}): Promise<MyFactorsOutcome> => ({
        kind: 'list',
        brand,
        model: { ...(await this.listModel(page, user)), ...extra },
      });
      const checked = await this.isChecked(page, user);
      if (form.action === 'check') return this.check(page, user, form.code, brand, list);
      if (form.action === 'list') return list();
      if (!checked) return list({ notice: 'confirmFirst' });
      switch (form.action) {
        case 'add-start': {
          const pending = this.enrollment.newPendingSecret();
          await this.pages.updateMyFactorsPage(page.accountId, page.id, { pendingSecretEnc: pending });
          return { kind: 'enroll', brand, model: await this.enrollModel(page, user, pending) };
        }
        case 'add-confirm': {
          if (!page.pendingSecretEnc) return list();
          const step = this.enrollment.verify(page.pendingSecretEnc, form.code.replace(/\s+/g, ''), now);
          if (step === null) {
            const left = await this.countWrongCode(page);
            if (left <= 0) return { kind: 'final', brand, reason: 'tooManyCodes' };
            return {
              kind: 'enroll',
              brand,
              model: { ...(await this.enrollModel(page, user, page.pendingSecretEnc)), error: { attemptsLeft: left } },
            };
          }
          await this.enrollment.complete(page.accountId, user, page.pendingSecretEnc, step, now, { Source: 'self-service' });
          await this.pages.updateMyFactorsPage(page.accountId, page.id, { pendingSecretEnc: null });
          page.pendingSecretEnc = null;
          return list({ notice: 'added' });
        }
        case 'telegram-start': {
          if (!this.telegramRuntime.api) return list();
          // the link lives as long as the page that shows it
          const link = await this.telegram.createLink(page.accountId, user.id, page.expiresAt);
          if (!link.url) return list({ notice: 'telegramUnavailable' });
          return {
            kind: 'telegram',
            brand,
            model: { url: link.url, qrSvg: await qrSvg(link.url, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' }) },
          };
        }
        case 'mobile-app-start': {
          // one token per page shown, living as long as the page; the page asks whether it enrolled
          const offer = await this.mobileApp.offer(page.accountId, user.id, page.expiresAt);
          if (!offer) return list();
          return {
            kind: 'mobileApp',
            brand,
            model: { url: offer.url, qrSvg: offer.qrSvg, statePath: `${token}/mobile-app?token=${offer.tokenId}` },
          };
        }
        case RECOVERY_CODES_ACTION: {
          // nothing to recover before the user has a factor
          if ((await this.listModel(page, user)).recoveryCodesLeft === undefined) return list();
          const codes = (await this.standbyCodes.recoveryCodesForUser(page.accountId, user, 'self-service')) ?? [];
          return { kind: 'recoveryCodes', brand, codes };
        }
        case 'rename':
          return list({ notice: await this.rename(page, user, form.id, form.name) });
        case 'remove': {
          const removed = await this.factors.removeOf(page.accountId, user, form.id);
          return list({ notice: removed === 'last' ? 'lastFactor' : 'removed' });
        }
        default:
          return list();
      }
    });
  }

  /**
   * The app page's check of its token: whether it enrolled a device of the page's user. Only for the
   * browser the page is bound to ('unknown' else: the link's holder learns nothing elsewhere).
   */
  async mobileAppEnrolled(token: string, visitor: MyFactorsVisitor, tokenId: string): Promise<boolean | 'unknown'> {
    const found = await this.find(token);
    if ('reason' in found) return found.reason === 'unknown' ? 'unknown' : false;
    if (!this.sameBrowser(found.page, visitor)) return 'unknown';
    return this.mobileApp.enrolled(found.page.accountId, found.page.userId, tokenId);
  }

  private async check(
    page: MyFactorsPageRow,
    user: UserEntity,
    code: string,
    brand: string,
    list: (extra?: Partial<MyFactorsListModel>) => Promise<MyFactorsOutcome>,
  ): Promise<MyFactorsOutcome> {
    const now = this.clock.now();
    const rows = await this.authenticators.listByUser(page.accountId, user.id);
    const result = await acceptOtpCode(this.authenticators, this.cipher, rows, code.replace(/\s+/g, ''), now);
    if (result.result === 'granted') {
      const until = new Date(now.getTime() + MY_FACTORS_CHECK_MINUTES * 60_000);
      await this.pages.updateMyFactorsPage(page.accountId, page.id, { checkedUntil: until });
      page.checkedUntil = until;
      return list({ notice: 'confirmed' });
    }
    const left = await this.countWrongCode(page);
    if (left <= 0) return { kind: 'final', brand, reason: 'tooManyCodes' };
    return list({ wrongCode: { attemptsLeft: left } });
  }

  /** Counts a wrong code; the page closes at the limit. Returns the attempts left. */
  private async countWrongCode(page: MyFactorsPageRow): Promise<number> {
    const failed = page.failedAttempts + 1;
    page.failedAttempts = failed;
    if (failed >= MY_FACTORS_MAX_WRONG_CODES) {
      await this.pages.deleteMyFactorsPage(page.accountId, page.id);
      return 0;
    }
    await this.pages.updateMyFactorsPage(page.accountId, page.id, { failedAttempts: failed });
    return MY_FACTORS_MAX_WRONG_CODES - failed;
  }

  private async rename(page: MyFactorsPageRow, user: UserEntity, id: string, raw: string): Promise<MyFactorsNotice> {
    const name = raw.trim();
    if (name.length === 0 || name.length > NAME_MAX_CHARS || [...name].some((c) => c.charCodeAt(0) < 0x20)) return 'badName';
    const rows = await this.authenticators.listByUser(page.accountId, user.id);
    const authenticator = rows.find((row) => row.id === id);
    if (!authenticator) return 'badName';
    await this.authenticators.rename(page.accountId, authenticator.id, name);
    await this.journal.record(page.accountId, {
      object: 'User',
      action: 'Update',
      subject: user.identity,
      success: true,
      additionalFields: {
        UserId: user.id,
        AuthenticatorId: authenticator.id,
        AuthenticatorName: name,
        AuthenticatorPreviousName: authenticator.name,
        Source: 'self-service',
      },
    });
    return 'renamed';
  }

  /** Changes are open after a code confirmed on this page, or for a user who has no factor at all yet. */
  private async isChecked(page: MyFactorsPageRow, user: UserEntity): Promise<boolean> {
    if (page.checkedUntil && page.checkedUntil.getTime() > this.clock.now().getTime()) return true;
    return factorCount(await this.profiles.factorsOf(page.accountId, user.id)) === 0;
  }

  private async listModel(page: MyFactorsPageRow, user: UserEntity): Promise<MyFactorsListModel> {
    const rows = await this.authenticators.listByUser(page.accountId, user.id);
    const phones = await this.users.phoneRowsOf(page.accountId, user.id);
    const factors = [
      ...rows.map((row) => ({ id: row.id, kind: portalKindOf(row.kind), label: row.name, renamable: true })),
      ...phones.map((phone) => ({ id: phone.id, kind: 'phone' as const, label: phone.number, renamable: false })),
    ];
    return {
      identity: user.identity,
      factors,
      checked: await this.isChecked(page, user),
      canCheck: otpAuthenticators(rows).length > 0,
      telegram: this.telegramRuntime.api !== null,
      mobileApp: this.mobileApp.enabled,
      ...(factors.length > 0
        ? { recoveryCodesLeft: (await this.standbyCodeRows.countLive(page.accountId, user.id, this.clock.now())).RecoveryCode }
        : {}),
    };
  }

  private async enrollModel(page: MyFactorsPageRow, user: UserEntity, pending: Buffer): Promise<EnrollmentFormModel> {
    const setup = await this.enrollment.setup(pending, { issuer: await this.brandOf(page), account: user.identity });
    return { holder: user.identity, ...setup };
  }

  private async find(token: string): Promise<{ page: MyFactorsPageRow } | { reason: MyFactorsFinalReason }> {
    if (!TOKEN.test(token)) return { reason: 'unknown' };
    const page = await this.pages.myFactorsPage(myFactorsTokenHash(token));
    if (!page) return { reason: 'unknown' };
    if (page.expiresAt.getTime() <= this.clock.now().getTime()) return { reason: 'expired' };
    return { page };
  }

  private sameBrowser(page: MyFactorsPageRow, visitor: MyFactorsVisitor): boolean {
    if (!page.browserNonceHash || !visitor.cookieNonce) return false;
    return timingSafeEqual(page.browserNonceHash, sha256(visitor.cookieNonce));
  }

  private async brandOf(page: MyFactorsPageRow): Promise<string> {
    return (await this.accounts.displayNameOf(page.accountId)) ?? PRODUCT_NAME;
  }
}
