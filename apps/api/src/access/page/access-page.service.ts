import { Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  AccessCallback,
  AuthenticationMethod,
  accessPageFrameAncestors,
  accessRequestExpiresAt,
  ACCESS_REQUEST_MAX_FAILED_CODES,
  CallbackTarget,
  Clock,
  decideCodeCheck,
  decideSubmission,
  DomainError,
  minutesUntil,
  PRODUCT_NAME,
  effectiveAccessStatus,
  everyFactorDisabled,
  isCallbackForFrame,
  SubmissionState,
} from '@twofold/domain';
import { JournalField, JournalWriter } from '@twofold/journal';
import {
  AccountsRepository,
  AccessRequestEntity,
  AccessRequestsRepository,
  AuthenticatorEntity,
  AuthenticatorKind,
  AuthenticatorsRepository,
  Db,
  ResourcesRepository,
  SecretCipher,
  UserEntity,
  UsersRepository,
} from '@twofold/persistence';
import { APP_CONFIG, CLOCK } from '../../app/tokens';
import { AppConfig } from '../../config/app-config';
import { AuthenticatorAppEnrollment } from '../../enrollment/authenticator-app';
import { PageLanguage } from '../../pages/i18n/languages';
import { UserRegistrationService } from '../../users/user-registration.service';
import { AccessFormTokens, FORM_TOKEN_FIELD } from './access-form-token';
import { formFromItsBrowser, newBrowserNonce, PresentedBrowser } from './access-page-binding';
import { acceptOtpCode, OtpCheck, otpAuthenticators } from '../decision/access-otp';
import { CodeAttemptStreaks, CodeLockouts, CodeOrigin, lockoutInForce } from '../decision/code-lockouts';
import { AccessPageForm } from './access-page.form';
import { AccessCodeError, AccessCodeModel, AccessEnrollModel, AccessExpiry, AccessFinalReason } from './access-page.view';
import { AccessTokensService } from '../../tokens/access-tokens.service';
import { AppMetrics } from '../../metrics/app-metrics';
import { IpListPolicy } from '../../ip-lists/ip-list-policy';
import { BypassJournal } from '../../ip-lists/bypass-journal';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The page's language, its brand, and who may frame it (CONTRACT §8.8): `frameAncestors` are CSP
 * `frame-ancestors` sources, empty when the page refuses to be framed, `['*']` for any origin. The
 * same list is where a postMessage callback posts the token. `brand` is the account's display name
 * (issue 14), the product's name on the page of an unknown request.
 */
type PageFrame = { lang: PageLanguage; brand: string; frameAncestors: readonly string[] };

/** What the page shows. A page with a form carries the browser nonce its form token is bound to, for its cookie. */
export type AccessPageOutcome = PageFrame &
  (
    | { kind: 'enroll'; model: AccessEnrollModel; browserNonce: string }
    | { kind: 'code'; model: AccessCodeModel; browserNonce: string }
    | { kind: 'granted'; callback: AccessCallback | null; accessToken: string }
    | { kind: 'final'; reason: AccessFinalReason }
  );

/** The browser as the access page saw it: its address (behind TRUSTED_PROXIES), its page cookie and `Origin`. */
export interface Visitor {
  ip: string;
  browser: PresentedBrowser;
}

type Resolved = { user: UserEntity } | { reason: AccessFinalReason };

/** A request the page admitted: its user, and the Bypass lists that let the visitor in without a code (null: none). */
interface Admitted {
  user: UserEntity;
  bypassLists: readonly string[] | null;
}

/** A submission's state as decideSubmission reads it, with the rows it was read from. */
interface LoadedSubmission {
  state: SubmissionState;
  row: AccessRequestEntity | null;
  user: UserEntity | null;
  otp: AuthenticatorEntity[];
  pendingEnc: Buffer | null;
  /** the wrong-code streaks of this visitor's address and of the request's resource (none read for a user without OTP) */
  streaks: CodeAttemptStreaks;
}

const FINAL_OF_STATUS = { Granted: 'used', Denied: 'denied', Expired: 'expired' } as const;

/**
 * The access page `$ACCESS_URL/<id>` (CONTRACT §7): registers an unknown identity, enrolls an
 * authenticator app for a user without a second factor, checks codes, and on success hands the
 * browser an AccessToken for the callback.
 */
@Injectable()
export class AccessPageService {
  private readonly formTokens: AccessFormTokens;

  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsRepository,
    private readonly requests: AccessRequestsRepository,
    private readonly users: UsersRepository,
    private readonly authenticators: AuthenticatorsRepository,
    private readonly resources: ResourcesRepository,
    private readonly registration: UserRegistrationService,
    private readonly authenticatorApp: AuthenticatorAppEnrollment,
    private readonly cipher: SecretCipher,
    private readonly journal: JournalWriter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accessTokens: AccessTokensService,
    private readonly metrics: AppMetrics,
    private readonly lockouts: CodeLockouts,
    private readonly ipLists: IpListPolicy,
    private readonly bypassJournal: BypassJournal,
  ) {
    this.formTokens = new AccessFormTokens(config.encryptionKey);
  }

  async show(id: string, visitor: Visitor, fallbackLang: PageLanguage): Promise<AccessPageOutcome> {
    const found = await this.find(id, fallbackLang);
    if ('kind' in found) return found;
    const { row, frame, ipListsRevision } = found;
    const resolved = await this.admit(row, frame, visitor, ipListsRevision);
    if ('kind' in resolved) return resolved;
    if (resolved.bypassLists) return this.bypass(row, frame, resolved.user, resolved.bypassLists, visitor);
    const all = await this.authenticators.listByUser(row.accountId, resolved.user.id);
    const otp = otpAuthenticators(all);
    // a reload, or a second tab of the same request, keeps the nonce its browser already holds
    const browserNonce = visitor.browser.cookieNonce ?? newBrowserNonce();
    if (otp.length === 0) {
      const factors = await this.otherSecondFactors(row.accountId, resolved.user.id, all);
      if (factors.hasSecondFactor) {
        await this.requests.decide(row.accountId, row.id, 'Denied', { userId: resolved.user.id });
        return { ...frame, kind: 'final', reason: factors.everyFactorDisabled ? 'factorsDisabled' : 'noOtpFactor' };
      }
      return { ...frame, kind: 'enroll', model: await this.enrollModel(row, resolved.user, browserNonce), browserNonce };
    }
    return { ...frame, kind: 'code', model: await this.codeModel(row, browserNonce), browserNonce };
  }

  async submit(id: string, form: AccessPageForm, visitor: Visitor, fallbackLang: PageLanguage): Promise<AccessPageOutcome> {
    const opened = await this.find(id, fallbackLang);
    if ('kind' in opened) return opened;
    const { row: found, frame, ipListsRevision } = opened;
    // before anything is read or counted: a refused form leaves the request as it was
    const browserNonce = this.formTokens.boundNonce(found.id, form.formToken);
    if (browserNonce === null || !formFromItsBrowser(browserNonce, visitor.browser, isFrameable(found)))
      return { ...frame, kind: 'final', reason: 'forged' };

    // registration cannot run inside the locked transaction below: a lost race aborts a transaction
    const resolved = await this.admit(found, frame, visitor, ipListsRevision);
    if ('kind' in resolved) return resolved;
    // a code posted from a Bypass address is not checked (nor counted)
    if (resolved.bypassLists) return this.bypass(found, frame, resolved.user, resolved.bypassLists, visitor);
    const final = (reason: AccessFinalReason): AccessPageOutcome => ({ ...frame, kind: 'final', reason });

    return this.db.transaction(async (): Promise<AccessPageOutcome> => {
      // submissions of one request queue up here: of parallel correct codes only the first grants
      const origin: CodeOrigin = { address: visitor.ip, resourceId: found.resourceId, channel: 'page' };
      const loaded = await this.loadSubmission(found, resolved.user.id, origin);
      const decision = decideSubmission(loaded.state);
      switch (decision.kind) {
        case 'gone':
          return final('unknown');
        case 'closed':
          return final(FINAL_OF_STATUS[decision.status]);
        case 'expire':
          await this.requests.decide(found.accountId, found.id, 'Expired');
          return final('expired');
        case 'refused':
          if (decision.reason === 'locked') this.metrics.otpVerification('page', 'locked');
          await this.requests.decide(found.accountId, found.id, 'Denied', { userId: resolved.user.id });
          return final(decision.reason);
      }
      const { row, user, otp, pendingEnc, streaks } = loaded;
      // the decisions left are taken only for a request and a user that exist
      if (!row || !user) throw new Error('decideSubmission went on without the request or its user');
      const now = loaded.state.now;
      const codeForm = async (error: AccessCodeError): Promise<AccessPageOutcome> => ({
        ...frame,
        kind: 'code',
        model: { ...(await this.codeModel(row, browserNonce)), error },
        browserNonce,
      });
      if (decision.kind === 'lockedOut') {
        this.metrics.otpVerification('page', 'locked');
        return codeForm({ kind: 'lockedOut', minutes: minutesUntil(decision.until, now) });
      }
      if (decision.kind === 'showSecret')
        return { ...frame, kind: 'enroll', model: await this.enrollModel(row, user, browserNonce), browserNonce };

      const check = await this.checkCode(decision.against, row, user, otp, pendingEnc, form.code, now);
      this.metrics.otpVerification('page', check.result);
      if (check.result === 'wrong' && decision.against === 'authenticators')
        await this.lockouts.countWrongCode(row.accountId, user, origin, streaks, now);
      if (check.result === 'granted') await this.lockouts.forgetOnGrant(row.accountId, user.id, streaks, now);
      const next = decideCodeCheck<AuthenticatorKind>(
        check.result === 'granted'
          ? { result: 'granted', authenticator: check.authenticator.kind }
          : check.result === 'replayed'
            ? { result: 'replayed' }
            : { result: 'wrong', counted: await this.requests.recordFailedAttempt(row.accountId, row.id, ACCESS_REQUEST_MAX_FAILED_CODES) },
      );
      if (next.kind === 'outOfCodes') {
        this.metrics.lockout('page', 'request');
        return final('tooManyCodes');
      }
      if (next.kind === 'alreadyUsed') return codeForm({ kind: 'alreadyUsed' });
      if (next.kind === 'wrongCode') {
        const error = { attemptsLeft: next.attemptsLeft };
        if (decision.against === 'shownSecret')
          return { ...frame, kind: 'enroll', model: { ...(await this.enrollModel(row, user, browserNonce)), error }, browserNonce };
        return codeForm({ kind: 'wrongCode', attemptsLeft: next.attemptsLeft });
      }
      const granted = await this.requests.decide(row.accountId, row.id, 'Granted', {
        userId: user.id,
        grantedAt: now,
        authenticator: next.authenticator,
        ip: row.ip ?? visitor.ip,
        remoteHost: row.remoteHost ?? visitor.ip,
        twoFADeviceIp: visitor.ip,
      });
      if (!granted) return final('used');
      await this.users.update(row.accountId, user.id, { lastLogin: now });
      return { ...frame, kind: 'granted', callback: callbackOf(row), accessToken: await this.accessToken(row, user, now, ['otp']) };
    });
  }

  /**
   * The visitor's address is on a Bypass list (issue 14): Granted without a code, also for a user
   * without a second factor, straight to the callback with a token whose `amr` is `["bypass"]`;
   * journaled `AccessRequest Bypass`. Code lockouts are neither consulted nor cleared: no code is checked.
   */
  private async bypass(
    row: AccessRequestEntity,
    frame: PageFrame,
    user: UserEntity,
    lists: readonly string[],
    visitor: Visitor,
  ): Promise<AccessPageOutcome> {
    return this.db.transaction(async (): Promise<AccessPageOutcome> => {
      const now = this.clock.now();
      const granted = await this.requests.decide(row.accountId, row.id, 'Granted', {
        userId: user.id,
        grantedAt: now,
        authenticator: null,
        bypassed: true,
        ip: row.ip ?? visitor.ip,
        remoteHost: row.remoteHost ?? visitor.ip,
      });
      if (!granted) return { ...frame, kind: 'final', reason: 'used' };
      await this.users.update(row.accountId, user.id, { lastLogin: now });
      await this.bypassJournal.record(row.accountId, {
        identity: row.identity,
        userIp: visitor.ip,
        resourceId: row.resourceId,
        lists,
        requestId: row.id,
        channel: 'page',
      });
      return { ...frame, kind: 'granted', callback: callbackOf(row), accessToken: await this.accessToken(row, user, now, ['bypass']) };
    });
  }

  /**
   * What decideSubmission looks at, read under the row locks of the request, then of its user (the
   * order every submission takes). The user's factors are read for the user the page admitted.
   */
  private async loadSubmission(found: AccessRequestEntity, userId: string, origin: CodeOrigin): Promise<LoadedSubmission> {
    const { accountId } = found;
    const row = await this.requests.findByIdForUpdate(accountId, found.id);
    // after the lock: a submission that waited for another is decided at the time it gets its turn
    const now = this.clock.now();
    const user = await this.users.findByIdForUpdate(accountId, userId);
    const all = await this.authenticators.listByUser(accountId, userId);
    const otp = otpAuthenticators(all);
    // the shown secret matters only to a user without OTP authenticators: not read for the others
    const pendingEnc = otp.length === 0 ? await this.requests.pendingSecret(accountId, found.id) : null;
    // lockouts guard the user's authenticators: a user enrolling on this page has no code to guess
    const streaks = otp.length > 0 ? await this.lockouts.streaksOf(accountId, userId, origin) : { keys: [], rows: [] };
    const state: SubmissionState = {
      request: row,
      now,
      user,
      codesLockedUntil: lockoutInForce(streaks, now)?.until ?? null,
      otpAuthenticators: otp.length,
      ...(await this.otherSecondFactors(accountId, userId, all)),
      secretShown: pendingEnc !== null,
    };
    return { state, row, user, otp, pendingEnc, streaks };
  }

  /**
   * The request of the page's URL and how its page is framed, or the final page of an unknown id. The
   * resource (its frameOrigins) is read only for a request meant for a frame, once per visit.
   */
  private async find(
    id: string,
    fallbackLang: PageLanguage,
  ): Promise<{ row: AccessRequestEntity; frame: PageFrame; ipListsRevision: string | null } | AccessPageOutcome> {
    const row = UUID.test(id) ? await this.requests.findForPage(id.toLowerCase()) : null;
    // a request of the `ra` family is continued only by its resource's ra/challenge: its id is a RADIUS
    // State that travels through NAS logs, and must not open a page that takes codes
    if (!row || row.channel !== 'page') {
      return { lang: fallbackLang, brand: PRODUCT_NAME, frameAncestors: [], kind: 'final', reason: 'unknown' };
    }
    const callback = { action: row.callbackAction, target: row.callbackTarget };
    const frameOrigins = isFrameable(row) ? ((await this.resources.findById(row.accountId, row.resourceId))?.frameOrigins ?? []) : [];
    // the account's name and whether it has IP lists, in the one read of the account a visit makes
    const account = await this.accounts.accessPageFactsOf(row.accountId);
    const brand = account?.displayName ?? PRODUCT_NAME;
    return {
      row,
      frame: { lang: languageOf(row), brand, frameAncestors: accessPageFrameAncestors(callback, frameOrigins) },
      ipListsRevision: account?.ipListsRevision ?? null,
    };
  }

  /**
   * What every visit does before its own work: a decided or expired request ends here; otherwise the
   * visit's address is recorded, judged by the account's IP lists (a Deny ends the request before
   * anyone is registered), and the request's user found, or registered at this first visit. A locked
   * user is Denied whatever the lists say.
   */
  private async admit(
    row: AccessRequestEntity,
    frame: PageFrame,
    visitor: Visitor,
    ipListsRevision: string | null,
  ): Promise<Admitted | AccessPageOutcome> {
    const status = await this.settleExpiry(row);
    if (status !== 'AwaitingAuthentication') return { ...frame, kind: 'final', reason: FINAL_OF_STATUS[status] };
    await this.requests.recordVisit(row.accountId, row.id, { ip: visitor.ip, remoteHost: visitor.ip });
    const verdict = await this.ipLists.verdict(row.accountId, ipListsRevision, visitor.ip, row.resourceId);
    if (verdict.decision === 'deny') {
      await this.requests.decide(row.accountId, row.id, 'Denied');
      return { ...frame, kind: 'final', reason: 'networkDenied' };
    }
    const resolved = await this.resolveUser(row);
    if ('reason' in resolved) return { ...frame, kind: 'final', reason: resolved.reason };
    return { user: resolved.user, bypassLists: verdict.decision === 'bypass' ? verdict.lists : null };
  }

  /** A request found awaiting past its expiry is written as Expired; returns the status as of now. */
  private async settleExpiry(row: AccessRequestEntity): Promise<AccessRequestEntity['status']> {
    const status = effectiveAccessStatus(row, this.clock.now());
    if (status === 'Expired' && row.status === 'AwaitingAuthentication') await this.requests.decide(row.accountId, row.id, 'Expired');
    return status;
  }

  /**
   * The request's user: found by identity, or registered at this first visit (journal User Create,
   * subject the identity: the user is the one acting). A locked user's request is Denied.
   */
  private async resolveUser(row: AccessRequestEntity): Promise<Resolved> {
    let user = row.userId
      ? await this.users.findById(row.accountId, row.userId)
      : await this.users.findByIdentity(row.accountId, row.identity);
    if (!user) {
      try {
        user = await this.db.transaction(async () => {
          const created = await this.registration.register(row.accountId, {
            identity: row.identity,
            name: null,
            email: row.email,
            source: 'Api',
          });
          const joined = await this.registration.joinExistingGroups(row.accountId, created.id, row.signUpGroups ?? []);
          await this.journal.record(row.accountId, {
            object: 'User',
            action: 'Create',
            subject: row.identity,
            success: true,
            additionalFields: {
              [JournalField.userIdentity]: row.identity,
              UserId: created.id,
              AccessRequestId: row.id,
              Source: 'AccessPage',
              ...(joined.length > 0 ? { GroupNames: joined.join(', ') } : {}),
            },
          });
          return created;
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === 'USER_IDENTITY_TAKEN') {
          user = await this.users.findByIdentity(row.accountId, row.identity);
        } else if (error.code === 'USERS_QUOTA_EXCEEDED') {
          await this.journal.record(row.accountId, {
            object: 'User',
            action: 'Create',
            subject: row.identity,
            success: false,
            additionalFields: {
              [JournalField.userIdentity]: row.identity,
              AccessRequestId: row.id,
              Source: 'AccessPage',
              Reason: error.message,
            },
          });
          await this.requests.decide(row.accountId, row.id, 'Denied');
          return { reason: 'noLicense' };
        } else {
          throw error;
        }
      }
      if (!user) return { reason: 'unknown' };
    }
    if (row.userId !== user.id) await this.requests.setUser(row.accountId, row.id, user.id);
    row.userId = user.id;
    if (user.isLocked) {
      await this.requests.decide(row.accountId, row.id, 'Denied');
      return { reason: 'locked' };
    }
    return { user };
  }

  /**
   * A second factor the page cannot check (an SMS phone, Telegram): the user is enrolled (`isEnrolled`),
   * so whoever holds the request's URL must not enroll an app of their own over it (CONTRACT §7 offers
   * the enrollment only to a user without a second factor). The administrator sends an enrollment link.
   * Authenticators an administrator disabled count as factors too, and when they are all the user has,
   * the page says so (issue 14). Phones are read only when the authenticators leave the answer open.
   */
  private async otherSecondFactors(
    accountId: AccountId,
    userId: string,
    all: readonly AuthenticatorEntity[],
  ): Promise<Pick<SubmissionState, 'hasSecondFactor' | 'everyFactorDisabled'>> {
    if (all.some((authenticator) => !authenticator.disabled)) return { hasSecondFactor: true, everyFactorDisabled: false };
    const hasPhones = (await this.users.phoneRowsOf(accountId, userId)).length > 0;
    return { hasSecondFactor: all.length > 0 || hasPhones, everyFactorDisabled: everyFactorDisabled(all, hasPhones) };
  }

  /** The code checked against the user's authenticators, or against the secret shown on this request (which it then enrolls). */
  private async checkCode(
    against: 'shownSecret' | 'authenticators',
    row: AccessRequestEntity,
    user: UserEntity,
    otp: readonly AuthenticatorEntity[],
    pendingEnc: Buffer | null,
    code: string,
    now: Date,
  ): Promise<OtpCheck | { result: 'granted'; authenticator: { kind: AuthenticatorKind } }> {
    if (against === 'authenticators') return acceptOtpCode(this.authenticators, this.cipher, otp, code, now);
    // decideSubmission checks against the shown secret only when there is one
    const enrolled = pendingEnc !== null && (await this.enrollPending(row, user, pendingEnc, code, now));
    return enrolled ? { result: 'granted', authenticator: { kind: 'Totp' } } : { result: 'wrong' };
  }

  /** The first valid code of the secret bound to this request becomes the user's Totp authenticator. */
  private async enrollPending(row: AccessRequestEntity, user: UserEntity, pendingEnc: Buffer, code: string, now: Date): Promise<boolean> {
    const spentTimeStep = this.authenticatorApp.verify(pendingEnc, code, now);
    if (spentTimeStep === null) return false;
    await this.authenticatorApp.complete(row.accountId, user, pendingEnc, spentTimeStep, now, { AccessRequestId: row.id });
    return true;
  }

  private async enrollModel(row: AccessRequestEntity, user: UserEntity, browserNonce: string): Promise<AccessEnrollModel> {
    let pendingEnc = await this.requests.pendingSecret(row.accountId, row.id);
    if (!pendingEnc) {
      await this.requests.setPendingSecretOnce(row.accountId, row.id, this.authenticatorApp.newPendingSecret());
      pendingEnc = (await this.requests.pendingSecret(row.accountId, row.id)) as Buffer;
    }
    // the authenticator-app entry is issued by the account's display name (issue 14)
    const brand = (await this.accounts.displayNameOf(row.accountId)) ?? PRODUCT_NAME;
    return {
      resourceName: await this.resourceName(row),
      holder: user.name ?? user.identity,
      ...(await this.authenticatorApp.setup(pendingEnc, { issuer: brand, account: user.identity })),
      hidden: { [FORM_TOKEN_FIELD]: this.formTokens.issue(row.id, browserNonce) },
      expiry: this.expiry(row),
    };
  }

  private async codeModel(row: AccessRequestEntity, browserNonce: string): Promise<AccessCodeModel> {
    return {
      resourceName: await this.resourceName(row),
      identity: row.identity,
      hidden: { [FORM_TOKEN_FIELD]: this.formTokens.issue(row.id, browserNonce) },
      expiry: this.expiry(row),
    };
  }

  /** The page shows the minutes left, by the injected clock. */
  private expiry(row: AccessRequestEntity): AccessExpiry {
    return { at: accessRequestExpiresAt(row.createdAt), now: this.clock.now() };
  }

  private async resourceName(row: AccessRequestEntity): Promise<string> {
    return (await this.resources.findById(row.accountId, row.resourceId))?.name ?? PRODUCT_NAME;
  }

  /**
   * The AccessToken of a granted request (CONTRACT §7, §8.9): `sub` is the user's stored identity
   * (issue 14), whatever spelling the request used; `amr` says how the user got it (a code, or a bypass).
   */
  private async accessToken(row: AccessRequestEntity, user: UserEntity, now: Date, amr: readonly AuthenticationMethod[]): Promise<string> {
    const resource = await this.resources.findById(row.accountId, row.resourceId);
    if (!resource) throw new Error('the resource of an access request is gone');
    return this.accessTokens.sign(resource, { identity: user.identity, jti: row.id, claims: row.claims ?? {}, now, amr });
  }
}

function languageOf(row: AccessRequestEntity): PageLanguage {
  return row.language === 'en' ? 'en' : 'ru';
}

/** Meant for a frame (CONTRACT §8.8): a postMessage callback, or the target `_parent` or `_top`. */
function isFrameable(row: AccessRequestEntity): boolean {
  return isCallbackForFrame({ action: row.callbackAction, target: row.callbackTarget });
}

function callbackOf(row: AccessRequestEntity): AccessCallback | null {
  if (!row.callbackAction) return null;
  return { action: row.callbackAction, target: (row.callbackTarget ?? '_self') as CallbackTarget };
}
