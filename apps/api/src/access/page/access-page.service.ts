import { Injectable } from '@nestjs/common';
import { AccessCallback, CallbackTarget, minutesUntil, SignInPrompt, SignInRefusal } from '@twofold/domain';
import { AccessRequestEntity, UserForCodeCheck } from '@twofold/persistence';
import { PageLanguage } from '../../pages/i18n/languages';
import { AccessDecisionService } from '../decision/access-decision.service';
import { SignInOutcome } from '../decision/sign-in';
import { AccessFormTokens } from './access-form-token';
import { formFromItsBrowser, newBrowserNonce } from './access-page-binding';
import { AccessPageAttempt, AccessPageAttempts } from './access-page.attempt';
import { AccessPageForm } from './access-page.form';
import { AccessPageOutcome, PageFrame, Visitor } from './access-page.outcome';
import { AccessCodeError, AccessFinalReason } from './access-page.view';
import { AccessPageViews } from './access-page-views';
import { AccessPageVisits, FINAL_OF_STATUS, isFrameable } from './access-page-visits';
import { AccessPageApprovals, hasCodeFactor } from './access-page-approvals';
import { TelegramEnrollment } from '../../telegram/telegram-enrollment';
import { MobileAppEnrollment } from '../../mobile-app/mobile-app-enrollment';
import { phoneOffer } from './access-page-phone';

export type { AccessPageOutcome, Visitor } from './access-page.outcome';

/** The page's final reason for each refusal the page's rules can come to. */
const FINAL_OF_REFUSAL: Partial<Record<SignInRefusal['kind'], AccessFinalReason>> = {
  locked: 'locked',
  networkDenied: 'networkDenied',
  unusableSecondFactor: 'noOtpFactor',
  secondFactorDisabled: 'factorsDisabled',
  outOfCodes: 'tooManyCodes',
};

/**
 * The access page `$ACCESS_URL/<id>`: registers an unknown identity, enrolls an
 * authenticator app for a user without a second factor, checks codes, and on success hands the
 * browser an AccessToken for the callback. What a visit and a posted code come to is the one access
 * decision (AccessDecisionService), as on `ra`.
 */
@Injectable()
export class AccessPageService {
  constructor(
    private readonly decision: AccessDecisionService,
    private readonly visits: AccessPageVisits,
    private readonly attempts: AccessPageAttempts,
    private readonly views: AccessPageViews,
    private readonly formTokens: AccessFormTokens,
    private readonly approvals: AccessPageApprovals,
    private readonly telegram: TelegramEnrollment,
    private readonly mobileApp: MobileAppEnrollment,
  ) {}

  /** `preferCode`: the user chose "enter a code instead" while an approval waits. */
  async show(id: string, visitor: Visitor, fallbackLang: PageLanguage, preferCode = false): Promise<AccessPageOutcome> {
    const found = await this.visits.find(id, fallbackLang);
    if ('kind' in found) return found;
    const admitted = await this.visits.admit(found, visitor);
    if ('kind' in admitted) return admitted;
    // a reload, or a second tab of the same request, keeps the nonce its browser already holds
    const browserNonce = visitor.browser.cookieNonce ?? newBrowserNonce();
    // a request asks once: a reload shows the approval it asked, or what became of it
    const asked = await this.approvals.asked(found.row);
    if (asked) {
      const codeInstead = hasCodeFactor(admitted.found);
      if (this.approvals.isWaiting(asked) && !(preferCode && codeInstead))
        return this.approvalPage(found.row, asked, found.frame, browserNonce, codeInstead);
      if (this.approvals.isWaiting(asked) || (asked.status === 'Undeliverable' && codeInstead))
        return this.codePage(found.row, found.frame, browserNonce, asked.status === 'Undeliverable', admitted.found);
      return this.resolveApproval(found.row, visitor, found.frame, browserNonce, admitted.found);
    }
    return this.decide(this.attempts.visit(found.row, visitor, admitted.found), found.frame, browserNonce, admitted.found);
  }

  async submit(id: string, form: AccessPageForm, visitor: Visitor, fallbackLang: PageLanguage): Promise<AccessPageOutcome> {
    const found = await this.visits.find(id, fallbackLang);
    if ('kind' in found) return found;
    // before anything is read or counted: a refused form leaves the request as it was
    const browserNonce = this.formTokens.boundNonce(found.row.id, form.formToken);
    if (browserNonce === null || !formFromItsBrowser(browserNonce, visitor.browser, isFrameable(found.row)))
      return { ...found.frame, kind: 'final', reason: 'forged' };
    const admitted = await this.visits.admit(found, visitor);
    if ('kind' in admitted) return admitted;
    if (form.approval) return this.resolveApproval(found.row, visitor, found.frame, browserNonce, admitted.found);
    if (form.send) return this.decide(this.attempts.sendCode(found.row, visitor, form.send), found.frame, browserNonce, admitted.found);
    return this.decide(this.attempts.code(found.row, visitor, form.code), found.frame, browserNonce, admitted.found);
  }

  /** The enrolling page's Telegram link: whether it bound the request's user's chat. */
  async telegramBound(id: string, linkId: string): Promise<boolean | 'unknown'> {
    const found = await this.visits.find(id, 'en');
    if ('kind' in found) return found.kind === 'final' && found.reason === 'unknown' ? 'unknown' : false;
    return this.telegram.bound(found.row.accountId, found.row.userId, linkId);
  }

  /** The enrolling page's app token: whether it enrolled a device of the request's user. */
  async mobileAppEnrolled(id: string, tokenId: string): Promise<boolean | 'unknown'> {
    const found = await this.visits.find(id, 'en');
    if ('kind' in found) return found.kind === 'final' && found.reason === 'unknown' ? 'unknown' : false;
    return this.mobileApp.enrolled(found.row.accountId, found.row.userId, tokenId);
  }

  /** The page's long poll: whether the approval it asked is decided (then the page posts its form). */
  async pollApproval(id: string, fallbackLang: PageLanguage): Promise<'pending' | 'decided' | 'unknown'> {
    const found = await this.visits.find(id, fallbackLang);
    if ('kind' in found) return found.kind === 'final' && found.reason === 'unknown' ? 'unknown' : 'decided';
    return this.approvals.poll(found.row);
  }

  /**
   * The decision, and the page it comes to. A posted code from a Bypass address is neither checked nor
   * counted. A visit that asks an approval sends its question now, then shows the number to pick.
   */
  private async decide(
    attempt: AccessPageAttempt,
    frame: PageFrame,
    browserNonce: string,
    found: UserForCodeCheck | null,
  ): Promise<AccessPageOutcome> {
    let outcome: SignInOutcome;
    try {
      outcome = attempt.answer.kind === 'visit' ? await this.decision.visit(attempt) : await this.decision.run(attempt);
    } catch (error) {
      // two first visits at once: one recorded the request's approval (a request asks once), the other shows it
      const asked = attempt.answer.kind === 'visit' ? await this.approvals.asked(attempt.found) : null;
      if (!asked) throw error;
      return this.approvalPage(attempt.found, asked, frame, browserNonce, hasCodeFactor(found));
    }
    if (outcome.kind !== 'pending') return this.pageOf(outcome, attempt, frame, browserNonce);
    const row = attempt.request ?? attempt.found;
    if (await this.approvals.deliver(outcome.approval))
      return this.approvalPage(row, outcome.approval, frame, browserNonce, hasCodeFactor(found));
    // the page says so and offers a code when it can
    if (hasCodeFactor(found)) return this.codePage(row, frame, browserNonce, true, found);
    return this.resolveApproval(row, attempt.visitor, frame, browserNonce, found);
  }

  private async approvalPage(
    row: AccessRequestEntity,
    approval: { number: number | null; factor: 'Telegram' | 'MobileApp' },
    frame: PageFrame,
    browserNonce: string,
    codeInstead: boolean,
  ): Promise<AccessPageOutcome> {
    return { ...frame, kind: 'approval', model: await this.approvals.view(row, approval, browserNonce, codeInstead), browserNonce };
  }

  private async codePage(
    row: AccessRequestEntity,
    frame: PageFrame,
    browserNonce: string,
    undeliverable: boolean,
    found: UserForCodeCheck | null,
  ): Promise<AccessPageOutcome> {
    const error = undeliverable ? ({ kind: 'undeliverable' } as const) : undefined;
    return { ...frame, kind: 'code', model: await this.views.code(row, browserNonce, error, phoneOffer(found, null)), browserNonce };
  }

  /** The page's form after an approval: granted or refused as the user answered; the approval view again while they may still answer. */
  private async resolveApproval(
    row: AccessRequestEntity,
    visitor: Visitor,
    frame: PageFrame,
    browserNonce: string,
    found: UserForCodeCheck | null,
  ): Promise<AccessPageOutcome> {
    const attempt = this.attempts.approvalAnswered(row, visitor);
    const outcome = await this.approvals.resolve(row, attempt);
    if (outcome === 'notAsked') return this.decide(this.attempts.visit(row, visitor, found), frame, browserNonce, found);
    if (outcome === 'pending') {
      const asked = await this.approvals.asked(row);
      if (asked) return this.approvalPage(row, asked, frame, browserNonce, hasCodeFactor(found));
      return this.codePage(row, frame, browserNonce, false, found);
    }
    return this.pageOf(outcome, attempt, frame, browserNonce);
  }

  private async pageOf(
    outcome: SignInOutcome,
    attempt: AccessPageAttempt,
    frame: PageFrame,
    browserNonce: string,
  ): Promise<AccessPageOutcome> {
    const row = attempt.request ?? attempt.found;
    const final = (reason: AccessFinalReason): AccessPageOutcome => ({ ...frame, kind: 'final', reason });
    const user = outcome.found?.user;
    switch (outcome.kind) {
      case 'foreign':
      case 'gone':
        return final('unknown');
      case 'closed':
        return final(FINAL_OF_STATUS[outcome.status]);
      case 'superseded':
        return final('used');
      case 'denied':
        return final(FINAL_OF_REFUSAL[outcome.refusal.kind] ?? 'denied');
      case 'granted':
        if (!attempt.accessToken) throw new Error('a request was granted without its AccessToken');
        return { ...frame, kind: 'granted', callback: callbackOf(row), accessToken: attempt.accessToken };
      case 'pending':
        throw new Error('an approval asked by the page is shown by decide()');
    }
    if (!user) throw new Error(`the page's ${outcome.kind} view needs the request's user`);
    const { prompt } = outcome.kind === 'waiting' ? outcome : { prompt: null };
    if (outcome.kind === 'enroll' || (outcome.kind === 'waiting' && outcome.factor === 'shownSecret')) {
      const error = prompt?.kind === 'wrongCode' ? { attemptsLeft: prompt.attemptsLeft } : undefined;
      return { ...frame, kind: 'enroll', model: await this.views.enroll(row, user, browserNonce, error), browserNonce };
    }
    const error = prompt ? codeErrorOf(prompt, outcome.now) : undefined;
    const phone = phoneOffer(outcome.found, prompt);
    return { ...frame, kind: 'code', model: await this.views.code(row, browserNonce, error, phone), browserNonce };
  }
}

/** What the code prompt says after an attempt that granted nothing. */
function codeErrorOf(prompt: SignInPrompt, now: Date): AccessCodeError | undefined {
  switch (prompt.kind) {
    case 'wrongCode':
      return { kind: 'wrongCode', attemptsLeft: prompt.attemptsLeft };
    case 'codeAlreadyUsed':
      return { kind: 'alreadyUsed' };
    case 'lockedOut':
      return { kind: 'lockedOut', minutes: minutesUntil(prompt.until, now) };
    default:
      return undefined;
  }
}

function callbackOf(row: AccessRequestEntity): AccessCallback | null {
  if (!row.callbackAction) return null;
  return { action: row.callbackAction, target: (row.callbackTarget ?? '_self') as CallbackTarget };
}
