import { Injectable } from '@nestjs/common';
import {
  APPROVAL_FACTOR_KINDS,
  AuthenticationMethod,
  PhoneCodeMethod,
  SIGN_IN_RULES,
  standbyCodeAuthenticationMethod,
  SignInAnswer,
  SignInRules,
} from '@twofold/domain';
import { AccessRequestEntity, AccessRequestsRepository, UserForCodeCheck, UsersRepository } from '@twofold/persistence';
import { AuthenticatorAppEnrollment } from '../../enrollment/authenticator-app';
import { StoredRequestLedger } from '../decision/request-ledgers';
import { AcceptedFactor, EnrollmentCheck, FactorCheckContext, FactorCheckResult, OpenedAttempt, SignInAttempt } from '../decision/sign-in';
import { AccessPageViews } from './access-page-views';
import { Visitor } from './access-page.outcome';

/**
 * A visit or a posted code on the access page, as AccessDecisionService runs it. A posted code locks
 * the request of the URL, then its user (registered by the visit when new); a visit, which attempts
 * nothing, reads the request as the visit found it. The user's address is the visitor's. A grant
 * records the visitor's address as the request's (when it had none) and, for a code, as the address
 * that answered it (`twoFADeviceIp`), and signs the AccessToken the page hands out. `request` is the
 * request as decided on.
 */
export class AccessPageAttempt implements SignInAttempt {
  /** a portal's reset or unlock request never enrolls and is never bypassed */
  readonly rules: SignInRules;
  request: AccessRequestEntity | null;
  accessToken: string | null = null;

  constructor(
    private readonly services: AccessPageAttempts,
    readonly found: AccessRequestEntity,
    readonly visitor: Visitor,
    readonly answer: SignInAnswer,
    /** the user as the visit read it, which a visit decides on; null: read it with the decision */
    private readonly user: UserForCodeCheck | null,
  ) {
    this.request = found;
    this.rules = found.purpose === 'signIn' ? SIGN_IN_RULES.page : SIGN_IN_RULES.recovery;
  }

  async open(): Promise<OpenedAttempt> {
    const { accountId, id } = this.found;
    const row = this.answer.kind === 'visit' ? this.found : await this.services.requests.findByIdForUpdate(accountId, id);
    const ledgerRow = row ?? this.found;
    this.request = row;
    const visitor = this.visitor;
    return {
      kind: 'opened',
      request: row ? { kind: 'stored', status: row.status, createdAt: row.createdAt } : { kind: 'gone' },
      accountId,
      lockUser: async (streakKeys) => {
        if (this.answer.kind === 'visit' && this.user) return this.user;
        return row?.userId ? this.services.users.lockForCodeCheck(accountId, { id: row.userId }, streakKeys) : null;
      },
      address: visitor.ip,
      resourceId: ledgerRow.resourceId,
      channel: 'page',
      ledger: new StoredRequestLedger(this.services.requests, ledgerRow, (factor) => ({
        ip: ledgerRow.ip ?? visitor.ip,
        remoteHost: ledgerRow.remoteHost ?? visitor.ip,
        // a code is typed in this browser; an approval's device is elsewhere (Telegram's servers hide its address)
        ...(factor && !isApprovalKind(factor.kind) ? { twoFADeviceIp: visitor.ip } : {}),
      })),
      enrollment: new ShownSecretCheck(this.services.requests, this.services.authenticatorApp, ledgerRow),
    };
  }

  /** The AccessToken, signed before the grant commits: `amr` says whether a code was checked or the address bypassed it. */
  async granted({ found, factor, now }: { found: UserForCodeCheck; factor: AcceptedFactor | null; now: Date }): Promise<void> {
    const amr: AuthenticationMethod = !factor
      ? 'bypass'
      : (standbyCodeAuthenticationMethod(factor.kind) ?? (isApprovalKind(factor.kind) ? 'mca' : 'otp'));
    this.accessToken = await this.services.views.accessToken(this.request ?? this.found, found.user, now, [amr]);
  }
}

/**
 * The page's enrollment of a user without any second factor: the first valid code of the secret shown
 * on this request becomes the user's Totp authenticator (journaled by the enrollment), with its time
 * step spent.
 */
class ShownSecretCheck implements EnrollmentCheck {
  private pendingEnc: Buffer | null = null;

  constructor(
    private readonly requests: AccessRequestsRepository,
    private readonly authenticatorApp: AuthenticatorAppEnrollment,
    private readonly row: AccessRequestEntity,
  ) {}

  /** Whether a secret was shown on this request, read once under the request's lock. */
  async secretShown(): Promise<boolean> {
    this.pendingEnc = await this.requests.pendingSecret(this.row.accountId, this.row.id);
    return this.pendingEnc !== null;
  }

  async check({ found, answer, now }: FactorCheckContext): Promise<FactorCheckResult> {
    if (answer.kind !== 'code' || this.pendingEnc === null) return { result: 'wrong' };
    const spentTimeStep = this.authenticatorApp.verify(this.pendingEnc, answer.code, now);
    if (spentTimeStep === null) return { result: 'wrong' };
    await this.authenticatorApp.complete(this.row.accountId, found.user, this.pendingEnc, spentTimeStep, now, {
      AccessRequestId: this.row.id,
    });
    return { result: 'granted', factor: { kind: 'Totp', id: null, name: null } };
  }
}

/** Makes the access page's attempts. */
@Injectable()
export class AccessPageAttempts {
  constructor(
    readonly requests: AccessRequestsRepository,
    readonly users: UsersRepository,
    readonly authenticatorApp: AuthenticatorAppEnrollment,
    readonly views: AccessPageViews,
  ) {}

  /** The page shown: decided on the request and the user as the visit read them. */
  visit(found: AccessRequestEntity, visitor: Visitor, user: UserForCodeCheck | null): AccessPageAttempt {
    return new AccessPageAttempt(this, found, visitor, { kind: 'visit' }, user);
  }

  /** The person's answer to the approval the page asked: applied under the request's and the user's row locks. */
  approvalAnswered(found: AccessRequestEntity, visitor: Visitor): AccessPageAttempt {
    return new AccessPageAttempt(this, found, visitor, { kind: 'approvalAnswered' }, null);
  }

  /** "Send a code by SMS" or "call me" pressed: the phone code is sent as for `s`/`c`, under the same row locks and limits. */
  sendCode(found: AccessRequestEntity, visitor: Visitor, method: PhoneCodeMethod): AccessPageAttempt {
    return new AccessPageAttempt(this, found, visitor, { kind: 'delivery', method }, null);
  }

  /** A code posted: decided under the request's and the user's row locks. */
  code(found: AccessRequestEntity, visitor: Visitor, code: string): AccessPageAttempt {
    return new AccessPageAttempt(this, found, visitor, { kind: 'code', code }, null);
  }
}

function isApprovalKind(kind: string): boolean {
  return (APPROVAL_FACTOR_KINDS as readonly string[]).includes(kind);
}
