import { Inject, Injectable } from '@nestjs/common';
import {
  ACCESS_REQUEST_TTL_MINUTES,
  Clock,
  effectiveAccessStatus,
  NotFound,
  parsePage,
  parsePastDay,
  requireUuid,
  validateAccessRequest,
  validatePassCodeRequest,
} from '@twofold/domain';
import { AccessRequestEntity, AccessRequestsRepository, AuthenticatorsRepository, Db, SecretCipher, UsersRepository } from '@twofold/persistence';
import { APP_CONFIG, CLOCK } from '../app/tokens';
import { ResourcePrincipal } from '../auth/principal';
import { AppConfig } from '../config/app-config';
import { lowerCaseKeys, singleQueryValue } from '../http/case-insensitive-keys';
import { ModelEnvelope, ok, PagedModel, pagedModel } from '../http/envelope';
import { acceptOtpCode, otpAuthenticators, userOutOfCodeAttempts } from './access-otp';
import { AccessRequestDto, CreatedAccessRequestDto, PassCodeResultDto, toAccessRequestDto } from './access.dto';

export const RA_REPLIES = {
  granted: 'Access granted.',
  unknownUser: 'Access denied: unknown user.',
  locked: 'Access denied: the user is locked.',
  noAuthenticator: 'Access denied: the user has no OTP authenticator.',
  wrongCode: 'Access denied: wrong or already used code.',
  tooManyCodes: 'Access denied: too many wrong codes. Try again later.',
} as const;

/** The API side of access requests (CONTRACT §7): create, poll, history, and pass-code checks. */
@Injectable()
export class AccessRequestsService {
  constructor(
    private readonly db: Db,
    private readonly requests: AccessRequestsRepository,
    private readonly users: UsersRepository,
    private readonly authenticators: AuthenticatorsRepository,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(principal: ResourcePrincipal, body: unknown): Promise<ModelEnvelope<CreatedAccessRequestDto>> {
    const input = validateAccessRequest(body);
    const row = await this.requests.insert(principal.accountId, {
      resourceId: principal.resourceId,
      userId: null,
      identity: input.identity,
      email: input.email,
      phone: input.phone,
      language: input.language,
      claims: input.claims,
      callbackAction: input.callback?.action ?? null,
      callbackTarget: input.callback?.target ?? null,
      createdAt: this.clock.now(),
    });
    return ok({ id: row.id, url: `${this.config.accessUrl}/${row.id}`, status: row.status });
  }

  /** Polling by the resource's server: any request of the resource's account; others are 404. */
  async find(principal: ResourcePrincipal, id: string): Promise<ModelEnvelope<AccessRequestDto>> {
    const row = await this.requests.findById(principal.accountId, requireUuid(id, 'Access request'));
    if (!row) throw new NotFound('Access request');
    await this.persistExpiry(row);
    const names = await this.requests.resourceNames(principal.accountId, [row.resourceId]);
    return ok(toAccessRequestDto(row, names.get(row.resourceId) ?? null, this.clock.now()));
  }

  /** GET /access/requests: one past UTC day of the account's history (SPEC.md "History"). */
  async history(accountId: string, rawQuery: Record<string, unknown>): Promise<ModelEnvelope<PagedModel<AccessRequestDto>>> {
    const query = lowerCaseKeys(rawQuery);
    const now = this.clock.now();
    const day = parsePastDay('createdAt', query['createdat'], now);
    const page = parsePage(query['offset'], query['limit']);
    const identity = singleQueryValue('identity', query['identity']);
    await this.requests.expireStale(accountId, new Date(now.getTime() - ACCESS_REQUEST_TTL_MINUTES * 60_000));
    const [rows, total] = await this.requests.list(
      accountId,
      { from: day.from, to: day.to, identity: identity || undefined },
      page,
    );
    const names = await this.requests.resourceNames(accountId, rows.map((row) => row.resourceId));
    return ok(pagedModel(rows, total, page, (row) => toAccessRequestDto(row, names.get(row.resourceId) ?? null, now)));
  }

  /**
   * POST /access/requests/ra: a code checked without a browser. Every call is a history item; a wrong,
   * replayed or refused code is still 200, with status Denied.
   */
  async passCode(principal: ResourcePrincipal, body: unknown): Promise<ModelEnvelope<PassCodeResultDto>> {
    const { identity, passCode } = validatePassCodeRequest(body);
    const now = this.clock.now();
    const result = await this.db.transaction(async () => {
      const found = await this.users.findByIdentity(principal.accountId, identity);
      // the user row lock queues one user's checks (as on the access page), so parallel calls cannot
      // each read the wrong-code count below the cap before any of them has added to it
      const user = found ? await this.users.findByIdForUpdate(principal.accountId, found.id) : null;
      const row = await this.requests.insert(principal.accountId, {
        resourceId: principal.resourceId,
        userId: user?.id ?? null,
        identity: user?.identity ?? identity,
        email: null,
        phone: null,
        language: 'ru',
        claims: null,
        callbackAction: null,
        callbackTarget: null,
        createdAt: now,
      });
      const deny = async (replyMessage: string, failed = false): Promise<PassCodeResultDto> => {
        if (failed) await this.requests.recordFailedAttempt(principal.accountId, row.id, 1);
        await this.requests.decide(principal.accountId, row.id, 'Denied');
        return { id: row.id, identity: row.identity, status: 'Denied', authenticator: null, replyMessage };
      };
      if (!user) return deny(RA_REPLIES.unknownUser);
      if (user.isLocked) return deny(RA_REPLIES.locked);
      const authenticators = otpAuthenticators(await this.authenticators.listByUser(principal.accountId, user.id));
      if (authenticators.length === 0) return deny(RA_REPLIES.noAuthenticator);
      if (await userOutOfCodeAttempts(this.requests, principal.accountId, user.id, now)) return deny(RA_REPLIES.tooManyCodes);
      const accepted = await acceptOtpCode(this.authenticators, this.cipher, authenticators, passCode, now);
      if (!accepted) return deny(RA_REPLIES.wrongCode, true);
      await this.requests.decide(principal.accountId, row.id, 'Granted', { grantedAt: now, authenticator: accepted.kind });
      await this.users.update(principal.accountId, user.id, { lastLogin: now });
      return { id: row.id, identity: row.identity, status: 'Granted' as const, authenticator: accepted.kind, replyMessage: RA_REPLIES.granted };
    });
    return ok(result);
  }

  /** A request found awaiting past its expiry is written as Expired when it is read. */
  private async persistExpiry(row: AccessRequestEntity): Promise<void> {
    if (row.status === 'AwaitingAuthentication' && effectiveAccessStatus(row, this.clock.now()) === 'Expired') {
      await this.requests.decide(row.accountId, row.id, 'Expired');
      row.status = 'Expired';
    }
  }
}
