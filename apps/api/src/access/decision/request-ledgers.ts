import { AccessLanguage, ACCESS_REQUEST_MAX_FAILED_CODES, AccountId } from '@twofold/domain';
import {
  AccessDecision,
  AccessRequestChannel,
  AccessRequestEntity,
  AccessRequestsRepository,
  DecidedAccessRequest,
  OtpSpend,
  UserForCodeCheck,
} from '@twofold/persistence';
import { AppMetrics } from '../../metrics/app-metrics';
import { AcceptedFactor, LedgerGrant, RequestLedger } from './sign-in';

/** What a request made by the call itself is written with, besides its outcome. */
export interface NewRequestValues {
  accountId: AccountId;
  resourceId: string;
  channel: Exclude<AccessRequestChannel, 'page'>;
  /** the user found; null for an identity the account does not know (the request still goes into the history) */
  userId: string | null;
  identity: string;
  language: AccessLanguage;
  /** the user's address as the client sent it */
  ip: string | null;
}

/**
 * A request of the `ra` family made by the call itself: written once, with its outcome, in one
 * statement (a Granted one sets the user's lastLogin in the same statement). It never waits for a
 * further answer in this call, so nothing is counted on it afterwards.
 */
export class NewRequestLedger implements RequestLedger {
  private requestIdWritten: string | null = null;

  constructor(
    private readonly requests: AccessRequestsRepository,
    private readonly metrics: AppMetrics,
    private readonly values: NewRequestValues,
  ) {}

  get requestId(): string | null {
    return this.requestIdWritten;
  }

  get identity(): string {
    return this.values.identity;
  }

  expire(): Promise<void> {
    throw new Error('a request made by this call cannot have expired');
  }

  async deny(now: Date, failedAttempts: number): Promise<string> {
    const values = this.decided(now, { status: 'Denied', failedAttempts, grantedAt: null, authenticator: null });
    return this.written(values, await this.requests.insertDecided(this.values.accountId, values));
  }

  async wait(now: Date): Promise<string> {
    const values = this.decided(now, { status: 'AwaitingAuthentication', failedAttempts: 0, grantedAt: null, authenticator: null });
    return this.written(values, await this.requests.insertDecided(this.values.accountId, values));
  }

  countWrongCode(): Promise<null> {
    throw new Error('a request made by this call spends its one attempt: it is denied, not counted');
  }

  async grant(factor: AcceptedFactor | null, now: Date, _user: UserForCodeCheck, spend?: OtpSpend): Promise<LedgerGrant> {
    const by = factor ? { authenticator: factor.kind } : { authenticator: null, bypassed: true };
    const values = this.decided(now, { status: 'Granted', failedAttempts: 0, grantedAt: now, ...by });
    const requestId = this.written(
      values,
      spend
        ? await this.requests.insertGrantedSpending(this.values.accountId, values, spend)
        : await this.requests.insertDecided(this.values.accountId, values),
    );
    // nothing written: the code's time step or counter was spent first
    return requestId ? { kind: 'granted', requestId } : { kind: 'replayed' };
  }

  private decided(
    now: Date,
    outcome: Pick<DecidedAccessRequest, 'status' | 'failedAttempts' | 'grantedAt' | 'authenticator' | 'bypassed'>,
  ): DecidedAccessRequest {
    const { ip, ...values } = this.values;
    return {
      ...values,
      email: null,
      phone: null,
      claims: null,
      callbackAction: null,
      callbackTarget: null,
      ip,
      remoteHost: ip,
      createdAt: now,
      ...outcome,
    };
  }

  /** The request's id once written (null: a grant whose code was spent first), counted in the metrics. */
  private written<Id extends string | null>(values: DecidedAccessRequest, requestId: Id): Id {
    if (requestId) this.metrics.accessRequestCreated(this.values.channel, values.status);
    this.requestIdWritten = requestId;
    return requestId;
  }
}

/**
 * A stored request the attempt continues (the page, `ra/challenge`), locked by the attempt: every
 * change of its status is the repository's conditional UPDATE, so of parallel deciders one wins.
 * `grantFacts` adds what an entry point records with a grant (the page: the addresses).
 */
export class StoredRequestLedger implements RequestLedger {
  constructor(
    private readonly requests: AccessRequestsRepository,
    private readonly row: Pick<AccessRequestEntity, 'accountId' | 'id' | 'identity'>,
    private readonly grantFacts: (factor: AcceptedFactor | null) => AccessDecision = () => ({}),
  ) {}

  get requestId(): string {
    return this.row.id;
  }

  get identity(): string {
    return this.row.identity;
  }

  async expire(): Promise<void> {
    await this.requests.decide(this.row.accountId, this.row.id, 'Expired');
  }

  async deny(_now: Date, _failedAttempts: number, user: UserForCodeCheck | null): Promise<string> {
    await this.requests.decide(this.row.accountId, this.row.id, 'Denied', user ? { userId: user.user.id } : {});
    return this.row.id;
  }

  async wait(): Promise<string> {
    return this.row.id;
  }

  countWrongCode() {
    return this.requests.recordFailedAttempt(this.row.accountId, this.row.id, ACCESS_REQUEST_MAX_FAILED_CODES);
  }

  async grant(factor: AcceptedFactor | null, now: Date, { user }: UserForCodeCheck, spend?: OtpSpend): Promise<LedgerGrant> {
    const by = factor ? { authenticator: factor.kind } : { authenticator: null, bypassed: true };
    const decision = { userId: user.id, grantedAt: now, ...by, ...this.grantFacts(factor) };
    const login = { userId: user.id, at: now };
    const { accountId, id } = this.row;
    const outcome = spend
      ? await this.requests.grantSpending(accountId, id, decision, login, spend)
      : (await this.requests.decide(accountId, id, 'Granted', decision, login))
        ? 'granted'
        : 'superseded';
    return outcome === 'granted' ? { kind: 'granted', requestId: id } : { kind: outcome };
  }
}
