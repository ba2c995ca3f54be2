import { Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  AuthenticatorKindName,
  Clock,
  isGiven,
  NotFound,
  OTP_TOKEN_DIGITS,
  OTP_TOKEN_KEY_MAX_BYTES,
  OTP_TOKEN_KEY_MIN_BYTES,
  OtpTokenKind,
  parseAuthenticatorKind,
  parseOtpTokenKind,
  parseOtpTokenPrivateId,
  requireUuid,
  validateAuthenticatorName,
  validateOtpTokenAlgorithm,
  ValidationFailed,
} from '@twofold/domain';
import { JournalField, journalDetails } from '@twofold/journal';
import { OtpKeyError, parseHexKey } from '@twofold/otp';
import { AuthenticatorEntity, AuthenticatorsRepository, SecretCipher, UserEntity, UsersRepository } from '@twofold/persistence';
import { CLOCK } from '../app/tokens';
import {
  AuthenticatorsByKindDto,
  CopiedTokenDto,
  CopyTokenRequest,
  RegisteredTokenDto,
  RegisterTokenRequest,
  toAuthenticatorsByKindDto,
  UpdateAuthenticatorRequest,
} from './authenticators.dto';

/** PATCH copy: at most this many target users in one call. */
export const TOKEN_COPY_MAX_USERS = 100;

/**
 * The token's key, refused with messages of our own: they say what is wrong and never repeat the
 * key (CONTRACT §6: hex of 16 to 64 bytes, anything else is 400).
 */
function parseTokenKey(raw: unknown): Buffer {
  if (!isGiven(raw) || raw === '') throw new ValidationFailed('Key is required: the token secret, hex-encoded.');
  if (typeof raw !== 'string') throw new ValidationFailed('Key must be a hex string.');
  try {
    return parseHexKey(raw.trim());
  } catch (error) {
    if (!(error instanceof OtpKeyError)) throw error;
    switch (error.code) {
      case 'KEY_TOO_SHORT':
      case 'KEY_TOO_LONG':
        throw new ValidationFailed(
          `Key must be ${OTP_TOKEN_KEY_MIN_BYTES} to ${OTP_TOKEN_KEY_MAX_BYTES} bytes (${OTP_TOKEN_KEY_MIN_BYTES * 2} to ${OTP_TOKEN_KEY_MAX_BYTES * 2} hex digits).`,
        );
      default:
        throw new ValidationFailed('Key must be hex-encoded (an even number of the digits 0-9, a-f).');
    }
  }
}

/** `users` of a copy: a non-empty array of ids, duplicates dropped (first occurrence kept). */
function parseTargetUserIds(raw: unknown): string[] {
  if (!Array.isArray(raw)) throw new ValidationFailed('users must be an array of user ids.');
  if (raw.length === 0) throw new ValidationFailed('users must name at least one user.');
  if (raw.some((id) => typeof id !== 'string')) throw new ValidationFailed('users must be an array of user ids.');
  const ids = [...new Set((raw as string[]).map((id) => requireUuid(id.trim(), 'User')))];
  if (ids.length > TOKEN_COPY_MAX_USERS) throw new ValidationFailed(`users may name at most ${TOKEN_COPY_MAX_USERS} users.`);
  return ids;
}

/**
 * Authenticators of users (SPEC.md "Authenticators", CONTRACT §6). Every path id must belong to the
 * caller's account and the authenticator to the path's user and kind, else 404. Changing handlers run
 * in the request's transaction (JournalInterceptor); moves and copies lock the source row first.
 * Keys and PrivateIds are encrypted at rest and never leave this service in any form.
 */
@Injectable()
export class AuthenticatorsService {
  constructor(
    private readonly authenticators: AuthenticatorsRepository,
    private readonly users: UsersRepository,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(accountId: AccountId, userId: string): Promise<AuthenticatorsByKindDto> {
    const user = await this.findUser(accountId, userId);
    const rows = await this.authenticators.listByUser(accountId, user.id);
    return toAuthenticatorsByKindDto(rows, await this.users.phoneRowsOf(accountId, user.id));
  }

  async registerToken(accountId: AccountId, userId: string, rawKind: string, body: RegisterTokenRequest): Promise<RegisteredTokenDto> {
    const kind = parseOtpTokenKind(rawKind);
    journalDetails.add({ AuthenticatorKind: kind });
    const user = await this.findUser(accountId, userId);
    const name = validateAuthenticatorName(body.name);
    journalDetails.add({ AuthenticatorName: name });
    const key = parseTokenKey(body.key);
    const privateId = parseOtpTokenPrivateId(body.privateId);
    const algorithm = validateOtpTokenAlgorithm(kind, body.algorithm);
    try {
      const created = await this.authenticators.insert(accountId, {
        userId: user.id,
        kind,
        name,
        secretEnc: this.cipher.encrypt('authenticator.secret', key),
        privateIdEnc: privateId ? this.cipher.encrypt('authenticator.private-id', privateId) : null,
        algorithm,
        digits: OTP_TOKEN_DIGITS,
        hotpCounter: kind === 'HotpToken' ? '0' : null,
        lastTimeStep: null,
        createdAt: this.clock.now(),
      });
      journalDetails.add({ AuthenticatorId: created.id, AuthenticatorAlgorithm: algorithm });
      return { id: created.id };
    } finally {
      key.fill(0);
      privateId?.fill(0);
    }
  }

  /** PUT: a rename, or with `user` a move of an OTP token to that user (and a rename if `name` is given). */
  async update(
    accountId: AccountId,
    userId: string,
    rawKind: string,
    id: string,
    body: UpdateAuthenticatorRequest,
  ): Promise<'renamed' | 'moved'> {
    if (isGiven(body.user)) {
      await this.move(accountId, userId, rawKind, id, body);
      return 'moved';
    }
    const kind = parseAuthenticatorKind(rawKind);
    if (kind === 'Sms') await this.refuseSmsRename(accountId, userId, id);
    const { authenticator } = await this.find(accountId, userId, kind, id);
    const name = validateAuthenticatorName(body.name);
    journalDetails.add({ AuthenticatorName: name, AuthenticatorPreviousName: authenticator.name });
    await this.authenticators.rename(accountId, authenticator.id, name);
    return 'renamed';
  }

  async delete(accountId: AccountId, userId: string, rawKind: string, id: string): Promise<void> {
    const kind = parseAuthenticatorKind(rawKind);
    if (kind === 'Sms' && (await this.deleteSmsPhone(accountId, userId, id))) return;
    const { authenticator } = await this.find(accountId, userId, kind, id);
    journalDetails.add({ AuthenticatorName: authenticator.name });
    await this.authenticators.delete(accountId, authenticator.id);
  }

  /** DELETE of a kind: every authenticator of that kind of the user; none is not an error. Returns how many. */
  async deleteKind(accountId: AccountId, userId: string, rawKind: string): Promise<number> {
    const kind = parseAuthenticatorKind(rawKind);
    journalDetails.add({ AuthenticatorKind: kind });
    const user = await this.findUser(accountId, userId, { lock: kind === 'Sms' });
    const removed: { id: string }[] = await this.authenticators.deleteKind(accountId, user.id, kind);
    if (kind === 'Sms') removed.push(...(await this.users.deleteAllPhones(accountId, user.id)));
    journalDetails.add({ AuthenticatorCount: String(removed.length) });
    if (removed.length > 0) journalDetails.add({ AuthenticatorIds: removed.map((row) => row.id).join(',') });
    return removed.length;
  }

  /** PATCH: a copy of the token for each target user, with the same secret and its own replay state. */
  async copyToken(accountId: AccountId, userId: string, rawKind: string, id: string, body: CopyTokenRequest): Promise<CopiedTokenDto> {
    const kind = parseOtpTokenKind(rawKind);
    const { user, authenticator } = await this.find(accountId, userId, kind, id, { lock: true });
    const targetIds = parseTargetUserIds(body.users);
    journalDetails.add({ TargetUserIds: targetIds.join(',') });
    if (targetIds.includes(user.id)) throw new ValidationFailed('users must not name the user the token belongs to.');
    const targets = await this.lockUsers(accountId, targetIds);
    journalDetails.add({ TargetUserIdentities: targets.map((target) => target.identity).join(',') });
    const copies = [];
    for (const target of targets) {
      // the stored ciphertexts are bound to their purpose only, so the copy keeps them as they are
      const copy = await this.authenticators.insert(accountId, {
        userId: target.id,
        kind: authenticator.kind,
        name: authenticator.name,
        secretEnc: authenticator.secretEnc,
        privateIdEnc: authenticator.privateIdEnc,
        algorithm: authenticator.algorithm,
        digits: authenticator.digits,
        hotpCounter: authenticator.hotpCounter,
        lastTimeStep: authenticator.lastTimeStep,
        createdAt: this.clock.now(),
      });
      copies.push({ userId: target.id, id: copy.id });
    }
    journalDetails.add({ CopyIds: copies.map((copy) => copy.id).join(',') });
    return { copies };
  }

  private async move(accountId: AccountId, userId: string, rawKind: string, id: string, body: UpdateAuthenticatorRequest): Promise<void> {
    const kind = parseOtpTokenKind(rawKind);
    const { user, authenticator } = await this.find(accountId, userId, kind, id, { lock: true });
    if (typeof body.user !== 'string' || body.user.trim() === '') throw new ValidationFailed('user must be a user id.');
    journalDetails.add({ TargetUserId: body.user });
    const name = isGiven(body.name) ? validateAuthenticatorName(body.name) : null;
    const [target] = await this.lockUsers(accountId, [requireUuid(body.user.trim(), 'User')]);
    journalDetails.add({ TargetUserId: target.id, TargetUserIdentity: target.identity });
    if (name !== null && name !== authenticator.name) {
      journalDetails.add({ AuthenticatorName: name, AuthenticatorPreviousName: authenticator.name });
      await this.authenticators.rename(accountId, authenticator.id, name);
    }
    if (target.id !== user.id) await this.authenticators.moveToUser(accountId, authenticator.id, target.id);
  }

  /** SMS is the user's phone numbers: one is removed here, under the user row lock the phone endpoints take too. */
  private async deleteSmsPhone(accountId: AccountId, userId: string, id: string): Promise<boolean> {
    journalDetails.add({ AuthenticatorKind: 'Sms' });
    const user = await this.findUser(accountId, userId, { lock: true });
    journalDetails.add({ AuthenticatorId: id });
    return this.users.deletePhone(accountId, user.id, requireUuid(id, 'Authenticator'));
  }

  /** A phone's name is its number, changed through the phone endpoints; an unknown id stays a 404. */
  private async refuseSmsRename(accountId: AccountId, userId: string, id: string): Promise<void> {
    const user = await this.findUser(accountId, userId);
    const phones = await this.users.phoneRowsOf(accountId, user.id);
    if (phones.some((phone) => phone.id === id.toLowerCase())) {
      throw new ValidationFailed('An SMS authenticator is a phone number: change it with the phone endpoints of the user API.');
    }
  }

  private async findUser(accountId: AccountId, userId: string, options: { lock?: boolean } = {}): Promise<UserEntity> {
    journalDetails.add({ UserId: userId });
    const id = requireUuid(userId, 'User');
    const user = options.lock ? await this.users.findByIdForUpdate(accountId, id) : await this.users.findById(accountId, id);
    if (!user) throw new NotFound('User');
    journalDetails.add({ UserId: user.id, [JournalField.userIdentity]: user.identity });
    return user;
  }

  /** The path's user and its authenticator of the path's kind; anything else is 404. */
  private async find(
    accountId: AccountId,
    userId: string,
    kind: AuthenticatorKindName | OtpTokenKind,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<{ user: UserEntity; authenticator: AuthenticatorEntity }> {
    journalDetails.add({ AuthenticatorKind: kind });
    const user = await this.findUser(accountId, userId);
    journalDetails.add({ AuthenticatorId: id });
    const authenticatorId = requireUuid(id, 'Authenticator');
    const authenticator = options.lock
      ? await this.authenticators.findOfUserForUpdate(accountId, user.id, authenticatorId)
      : await this.authenticators.findOfUser(accountId, user.id, authenticatorId);
    if (!authenticator || authenticator.kind !== kind) throw new NotFound('Authenticator');
    journalDetails.add({ AuthenticatorId: authenticator.id });
    return { user, authenticator };
  }

  /**
   * Target users of a move or copy, each locked (in id order, so parallel calls cannot deadlock) so
   * that none is deleted before the new rows reference it. Any id not of the account: 404, nothing done.
   */
  private async lockUsers(accountId: AccountId, ids: readonly string[]): Promise<UserEntity[]> {
    const byId = new Map<string, UserEntity>();
    for (const id of [...ids].sort()) {
      const user = await this.users.findByIdForUpdate(accountId, id);
      if (!user) throw new NotFound('User');
      byId.set(id, user);
    }
    return ids.map((id) => byId.get(id) as UserEntity);
  }
}
