import { Inject, Injectable } from '@nestjs/common';
import {
  accessLanguageOf,
  ACCESS_REQUEST_MAX_FAILED_CODES,
  Clock,
  effectiveAccessStatus,
  everyFactorDisabled,
  formatIdentity,
  minutesUntil,
  RaChallengeInput,
  RaRequestInput,
  PassCodeIntent,
} from '@twofold/domain';
import {
  AccessRequestChannel,
  AccessRequestEntity,
  AccessRequestsRepository,
  AuthenticatorEntity,
  AuthenticatorsRepository,
  Db,
  SecretCipher,
  UserEntity,
  UsersRepository,
} from '@twofold/persistence';
import { CLOCK } from '../../app/tokens';
import { AppMetrics } from '../../metrics/app-metrics';
import { ResourcePrincipal } from '../../auth/principal';
import { ModelEnvelope } from '../../http/envelope';
import { RaModelDto } from './ra.dto';
import { acceptOtpCode, otpAuthenticators } from '../decision/access-otp';
import { CodeLockouts, CodeOrigin, lockoutInForce } from '../decision/code-lockouts';
import { raAnswer, RaFacts } from './ra-answer';
import { RaReply } from './ra-replies';
import { IpListPolicy } from '../../ip-lists/ip-list-policy';
import { BypassJournal } from '../../ip-lists/bypass-journal';

type RaEnvelope = ModelEnvelope<RaModelDto>;

/**
 * The `ra` family (CONTRACT §8.2-8.4): codes checked without a browser, for a RADIUS adapter (VPN, RD
 * Gateway) and a directory server's LDAP bind. Every outcome is HTTP 200 with the whole model (§8.1);
 * every call that names a request is a history item like the page's, under the same code lockouts
 * (the user's address being the `ip` or `callingStationId` the client sends) and the same replay guard.
 */
@Injectable()
export class RaRequestsService {
  constructor(
    private readonly db: Db,
    private readonly requests: AccessRequestsRepository,
    private readonly users: UsersRepository,
    private readonly authenticators: AuthenticatorsRepository,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: AppMetrics,
    private readonly lockouts: CodeLockouts,
    private readonly ipLists: IpListPolicy,
    private readonly bypassJournal: BypassJournal,
  ) {}

  /**
   * `POST /access/requests/ra` and `/md`: with a code, checked in one step; without one (null, empty,
   * absent) the request waits for `/ra/challenge` (§8.3); a delivery letter (`t m s c`) is refused as
   * unavailable.
   */
  async passCode(principal: ResourcePrincipal, channel: Exclude<AccessRequestChannel, 'page'>, input: RaRequestInput): Promise<RaEnvelope> {
    const now = this.clock.now();
    return this.db.transaction(async () => {
      // the user row lock queues one user's checks (as on the access page), so parallel calls cannot
      // each read the wrong-code count below the cap before any of them has added to it
      const found = await this.users.lockForCodeCheck(principal.accountId, { identity: input.identity });
      /** The call's one history row, written with its outcome. */
      const record = (
        outcome: Pick<AccessRequestEntity, 'status' | 'failedAttempts' | 'grantedAt' | 'authenticator'> &
          Partial<Pick<AccessRequestEntity, 'bypassed'>>,
      ) => {
        this.metrics.accessRequestCreated(channel, outcome.status);
        return this.requests.insertDecided(principal.accountId, {
          resourceId: principal.resourceId,
          channel,
          userId: found?.user.id ?? null,
          identity: found?.user.identity ?? input.identity,
          email: null,
          phone: null,
          language: input.language,
          claims: null,
          callbackAction: null,
          callbackTarget: null,
          ip: input.userIp,
          remoteHost: input.userIp,
          createdAt: now,
          ...outcome,
        });
      };
      const submitted = input.passCodeIntent.kind === 'code';
      const identity = found?.user.identity ?? input.identity;
      const deny = async (reply: RaReply, wrongCode = false): Promise<RaEnvelope> => {
        const id = await record({ status: 'Denied', failedAttempts: wrongCode ? 1 : 0, grantedAt: null, authenticator: null });
        return raAnswer('Denied', reply, input.language, { id, identity, phone: found?.firstPhone });
      };

      if (!found) return deny({ kind: 'unknownUser' });
      const { user, firstPhone, authenticators } = found;
      if (user.isLocked) {
        if (submitted) this.metrics.otpVerification(channel, 'locked');
        return deny({ kind: 'locked' });
      }
      const origin: CodeOrigin = { address: input.userIp, resourceId: principal.resourceId, channel };
      // IP lists (issue 14), before any factor is looked at: a Bypass needs none, and its passCode is ignored
      const verdict = await this.ipLists.verdict(principal.accountId, found.ipListsRevision, origin.address, principal.resourceId);
      if (verdict.decision === 'deny') return deny({ kind: 'networkDenied' });
      if (verdict.decision === 'bypass') {
        const id = await record({ status: 'Granted', failedAttempts: 0, grantedAt: now, authenticator: null, bypassed: true });
        await this.bypassJournal.record(principal.accountId, {
          identity,
          userIp: origin.address as string,
          resourceId: principal.resourceId,
          lists: verdict.lists,
          requestId: id,
          channel,
        });
        return raAnswer('Granted', { kind: 'granted' }, input.language, { id, identity, phone: firstPhone, bypassed: true });
      }
      const otp = otpAuthenticators(authenticators);
      if (otp.length === 0) return deny(withoutUsableFactor(authenticators, firstPhone !== null));
      if (input.passCodeIntent.kind === 'delivery') return deny({ kind: 'deliveryUnavailable', method: input.passCodeIntent.method });
      const streaks = await this.lockouts.streaksOf(principal.accountId, user.id, origin);
      const lockout = lockoutInForce(streaks, now);
      if (lockout) {
        if (submitted) this.metrics.otpVerification(channel, 'locked');
        return deny({ kind: 'lockedOut', minutes: minutesUntil(lockout.until, now) });
      }
      if (input.passCodeIntent.kind === 'none') {
        const id = await record({ status: 'AwaitingAuthentication', failedAttempts: 0, grantedAt: null, authenticator: null });
        return raAnswer('AwaitingAuthentication', { kind: 'enterCode' }, input.language, { id, identity, phone: firstPhone });
      }

      const check = await acceptOtpCode(this.authenticators, this.cipher, otp, input.passCodeIntent.code, now);
      this.metrics.otpVerification(channel, check.result);
      if (check.result === 'replayed') return deny({ kind: 'codeAlreadyUsed' });
      if (check.result === 'wrong') {
        await this.lockouts.countWrongCode(principal.accountId, user, origin, streaks, now);
        return deny({ kind: 'wrongCode' }, true);
      }
      await this.lockouts.forgetOnGrant(principal.accountId, user.id, streaks, now);
      const accepted = check.authenticator;
      const id = await record({ status: 'Granted', failedAttempts: 0, grantedAt: now, authenticator: accepted.kind });
      return raAnswer('Granted', { kind: 'granted' }, input.language, { id, identity, phone: firstPhone, ...acceptedFacts(accepted) });
    });
  }

  /**
   * `POST /access/requests/ra/challenge` `{identity, challenge, requestId}` (§8.3): the second step of
   * a request this resource started through `ra` or `md` for this identity. A wrong code leaves the
   * request waiting until its five attempts are spent. A request of another resource or identity, or
   * of the access page, is Denied here and left unchanged; a decided or expired one is Denied.
   */
  async challenge(principal: ResourcePrincipal, input: RaChallengeInput): Promise<RaEnvelope> {
    const now = this.clock.now();
    return this.db.transaction(async () => {
      // submissions of one request queue up here: of parallel correct codes only the first grants
      const row = input.requestId ? await this.requests.findByIdForUpdate(principal.accountId, input.requestId) : null;
      if (!row || !isChallengeable(row, principal, input.identity)) {
        return raAnswer('Denied', { kind: 'requestNotValid' }, input.language, { identity: input.identity });
      }
      const language = accessLanguageOf(row.language);
      const facts: RaFacts = { id: row.id, identity: row.identity };
      const status = effectiveAccessStatus(row, now);
      if (status === 'Expired') {
        if (row.status === 'AwaitingAuthentication') await this.requests.decide(row.accountId, row.id, 'Expired');
        return raAnswer('Denied', { kind: 'expired' }, language, facts);
      }
      if (status !== 'AwaitingAuthentication') return raAnswer('Denied', { kind: 'requestNotValid' }, language, facts);

      const deny = async (reply: RaReply): Promise<RaEnvelope> => {
        await this.requests.decide(row.accountId, row.id, 'Denied');
        return raAnswer('Denied', reply, language, facts);
      };
      const found = row.userId ? await this.users.lockForCodeCheck(row.accountId, { id: row.userId }) : null;
      if (!found) return deny({ kind: 'unknownUser' });
      const { user, firstPhone, authenticators } = found;
      const channel = row.channel;
      const submitted = codeOf(input.challenge) !== null;
      if (user.isLocked) {
        if (submitted) this.metrics.otpVerification(channel, 'locked');
        return deny({ kind: 'locked' });
      }
      facts.phone = firstPhone;
      // the user's address is the one its ra step recorded
      const origin: CodeOrigin = { address: row.ip, resourceId: row.resourceId, channel };
      const verdict = await this.ipLists.verdict(row.accountId, found.ipListsRevision, origin.address, row.resourceId);
      if (verdict.decision === 'deny') return deny({ kind: 'networkDenied' });
      if (verdict.decision === 'bypass') {
        if (!(await this.grant(row, user, null, now))) return raAnswer('Denied', { kind: 'requestNotValid' }, language, facts);
        await this.bypassJournal.record(row.accountId, {
          identity: row.identity,
          userIp: origin.address as string,
          resourceId: row.resourceId,
          lists: verdict.lists,
          requestId: row.id,
          channel,
        });
        return raAnswer('Granted', { kind: 'granted' }, language, { ...facts, bypassed: true });
      }
      const otp = otpAuthenticators(authenticators);
      if (otp.length === 0)
        return deny(
          everyFactorDisabled(authenticators, firstPhone !== null) ? { kind: 'secondFactorDisabled' } : { kind: 'noSecondFactor' },
        );
      const streaks = await this.lockouts.streaksOf(row.accountId, user.id, origin);
      const lockout = lockoutInForce(streaks, now);
      if (lockout) {
        if (submitted) this.metrics.otpVerification(channel, 'locked');
        return deny({ kind: 'lockedOut', minutes: minutesUntil(lockout.until, now) });
      }
      const code = codeOf(input.challenge);
      if (code === null) return raAnswer('AwaitingAuthentication', challengeReply(input.challenge), language, facts);

      const check = await acceptOtpCode(this.authenticators, this.cipher, otp, code, now);
      this.metrics.otpVerification(channel, check.result);
      if (check.result === 'replayed') return raAnswer('AwaitingAuthentication', { kind: 'codeAlreadyUsedRetry' }, language, facts);
      if (check.result === 'wrong') {
        await this.lockouts.countWrongCode(row.accountId, user, origin, streaks, now);
        const failed = await this.requests.recordFailedAttempt(row.accountId, row.id, ACCESS_REQUEST_MAX_FAILED_CODES);
        if (!failed || failed.status !== 'AwaitingAuthentication') {
          if (failed) this.metrics.lockout(channel, 'request');
          return raAnswer('Denied', { kind: 'wrongCode' }, language, facts);
        }
        const attemptsLeft = ACCESS_REQUEST_MAX_FAILED_CODES - failed.failedAttempts;
        return raAnswer('AwaitingAuthentication', { kind: 'wrongCodeRetry', attemptsLeft }, language, facts);
      }
      await this.lockouts.forgetOnGrant(row.accountId, user.id, streaks, now);
      const accepted = check.authenticator;
      if (!(await this.grant(row, user, accepted, now))) return raAnswer('Denied', { kind: 'requestNotValid' }, language, facts);
      return raAnswer('Granted', { kind: 'granted' }, language, { ...facts, ...acceptedFacts(accepted) });
    });
  }

  /**
   * Granted through the conditional status change: true for exactly one of parallel deciders. Without
   * an accepted authenticator the grant is a bypass (the address is on a Bypass IP list).
   */
  private async grant(row: AccessRequestEntity, user: UserEntity, accepted: AuthenticatorEntity | null, now: Date): Promise<boolean> {
    const decision = accepted ? { authenticator: accepted.kind } : { authenticator: null, bypassed: true };
    const granted = await this.requests.decide(row.accountId, row.id, 'Granted', { grantedAt: now, ...decision });
    if (granted) await this.users.update(row.accountId, user.id, { lastLogin: now });
    return granted;
  }
}

/** Only this resource's own `ra`/`md` requests, for the identity that started them (compared like identities). */
/** Why a user none of whose authenticators takes codes is Denied: disabled by an administrator, of another kind, or none. */
function withoutUsableFactor(authenticators: readonly AuthenticatorEntity[], hasPhones: boolean): RaReply {
  if (everyFactorDisabled(authenticators, hasPhones)) return { kind: 'secondFactorDisabled' };
  return authenticators.length > 0 || hasPhones ? { kind: 'unusableSecondFactor' } : { kind: 'noSecondFactor' };
}

function isChallengeable(row: AccessRequestEntity, principal: ResourcePrincipal, identity: string): boolean {
  // the identity received is normalized by the account's format; the request's, recorded before a change of format, is compared likewise
  const recorded = formatIdentity(principal.identityFormat, row.identity) ?? row.identity;
  return row.resourceId === principal.resourceId && row.channel !== 'page' && recorded.toLowerCase() === identity.toLowerCase();
}

function codeOf(intent: PassCodeIntent): string | null {
  return intent.kind === 'code' ? intent.code : null;
}

/**
 * A challenge without a code (an empty answer at the VPN prompt, or a delivery letter) is not a
 * guess: the request keeps waiting and the prompt says what to enter.
 */
function challengeReply(intent: PassCodeIntent): RaReply {
  return intent.kind === 'delivery' ? { kind: 'deliveryUnavailableRetry', method: intent.method } : { kind: 'enterCode' };
}

function acceptedFacts(accepted: AuthenticatorEntity): RaFacts {
  return { authenticator: accepted.kind, authenticatorId: accepted.id, account: accepted.name };
}
