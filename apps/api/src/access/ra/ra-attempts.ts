import { Injectable } from '@nestjs/common';
import { formatIdentity, SIGN_IN_RULES, SignInAnswer } from '@twofold/domain';
import {
  AccessRequestChannel,
  AccessRequestEntity,
  AccessRequestsRepository,
  UserForCodeCheck,
  UsersRepository,
} from '@twofold/persistence';
import { ResourcePrincipal } from '../../auth/principal';
import { AppMetrics } from '../../metrics/app-metrics';
import { codeScopeKeys } from '../decision/code-lockouts';
import { NewRequestLedger, StoredRequestLedger } from '../decision/request-ledgers';
import { OpenedAttempt, SignInAttempt } from '../decision/sign-in';
import { RaChallengeCommand, RaRequestCommand } from './ra.commands';

/**
 * The `ra` family's attempts, as AccessDecisionService runs them: what each call reads under its row
 * locks and where its outcome is written. Every call that names a request is a history item like the
 * page's, under the same code lockouts (the user's address being the `ip` or `callingStationId` the
 * client sends) and the same replay guard.
 */
@Injectable()
export class RaAttempts {
  constructor(
    private readonly requests: AccessRequestsRepository,
    private readonly users: UsersRepository,
    private readonly metrics: AppMetrics,
  ) {}

  /**
   * `ra` and `md`: the call is its own request, written once with its outcome. The user's row lock
   * (read with its factors in one round trip) queues one user's checks, so parallel calls cannot each
   * read the wrong-code count below the cap before any of them has added to it. A call without a code
   * checks and counts nothing: it is opened without the lock first (`openUnlocked`), and its refusal or
   * prompt is its one statement, outside a transaction (the two-step flow's first call).
   */
  passCode(principal: ResourcePrincipal, channel: Exclude<AccessRequestChannel, 'page'>, input: RaRequestCommand): SignInAttempt {
    const origin = { address: input.userIp, resourceId: principal.resourceId, channel };
    const { accountId } = principal;
    const which = { identity: input.identity };
    const openWith = (found: UserForCodeCheck | null): OpenedAttempt => ({
      kind: 'opened',
      request: { kind: 'new' },
      accountId,
      lockUser: async () => found,
      address: input.userIp,
      resourceId: principal.resourceId,
      channel,
      ledger: new NewRequestLedger(this.requests, this.metrics, {
        accountId,
        resourceId: principal.resourceId,
        channel,
        userId: found?.user.id ?? null,
        identity: found?.user.identity ?? input.identity,
        language: input.language,
        ip: input.userIp,
      }),
    });
    return {
      rules: SIGN_IN_RULES[channel],
      answer: input.passCodeIntent,
      open: async () => openWith(await this.users.lockForCodeCheck(accountId, which, codeScopeKeys(origin))),
      // `la` always asks an approval, which is recorded under the lock
      openUnlocked:
        input.passCodeIntent.kind === 'none' && channel !== 'la'
          ? async () => openWith(await this.users.findForCodeCheck(accountId, which, codeScopeKeys(origin)))
          : undefined,
    };
  }

  /** `ra/challenge`: the second step of a request `ra` or `md` started (ChallengeAttempt). */
  challenge(principal: ResourcePrincipal, input: RaChallengeCommand): ChallengeAttempt {
    return new ChallengeAttempt(this.requests, this.users, principal, input);
  }

  /**
   * The person's answer to the approval a call of this resource asked on request `requestId` (its
   * user's identity, as recorded): applied like a challenge, under the same row locks.
   */
  approvalAnswered(principal: ResourcePrincipal, requestId: string, identity: string): ChallengeAttempt {
    const recorded = formatIdentity(principal.identityFormat, identity) ?? identity;
    const input = { identity: recorded, challenge: { kind: 'none' } as const, requestId, language: 'ru' as const };
    return new ChallengeAttempt(this.requests, this.users, principal, input, { kind: 'approvalAnswered' });
  }
}

/**
 * `ra/challenge`: the second step of a request this resource started through `ra` or `md` for this
 * identity, locked so that of parallel right codes only the first grants. The user's address is the
 * one its `ra` step recorded. Any other request (of another resource or identity, of the page, or
 * none) is foreign: it is neither locked nor changed. `request` is the request continued, once open.
 */
export class ChallengeAttempt implements SignInAttempt {
  readonly rules = SIGN_IN_RULES.raChallenge;
  readonly answer: SignInAnswer;
  request: AccessRequestEntity | null = null;

  constructor(
    private readonly requests: AccessRequestsRepository,
    private readonly users: UsersRepository,
    private readonly principal: ResourcePrincipal,
    private readonly input: RaChallengeCommand,
    answer?: SignInAnswer,
  ) {
    this.answer = answer ?? input.challenge;
  }

  async open(): Promise<OpenedAttempt> {
    const { principal, input } = this;
    const row = input.requestId ? await this.requests.findByIdForUpdate(principal.accountId, input.requestId) : null;
    if (!row || !isChallengeable(row, principal, input.identity)) {
      return {
        kind: 'foreign',
        identityKnown: async () => (await this.users.findByIdentity(principal.accountId, input.identity)) !== null,
      };
    }
    this.request = row;
    return {
      kind: 'opened',
      request: { kind: 'stored', status: row.status, createdAt: row.createdAt },
      accountId: row.accountId,
      lockUser: async (streakKeys) => (row.userId ? this.users.lockForCodeCheck(row.accountId, { id: row.userId }, streakKeys) : null),
      address: row.ip,
      resourceId: row.resourceId,
      channel: row.channel,
      ledger: new StoredRequestLedger(this.requests, row),
    };
  }
}

/** Only this resource's own `ra`/`md` requests, for the identity that started them (compared like identities). */
function isChallengeable(row: AccessRequestEntity, principal: ResourcePrincipal, identity: string): boolean {
  // the identity received is normalized by the account's format; the request's, recorded before a change of format, is compared likewise
  const recorded = formatIdentity(principal.identityFormat, row.identity) ?? row.identity;
  return row.resourceId === principal.resourceId && row.channel !== 'page' && recorded.toLowerCase() === identity.toLowerCase();
}
