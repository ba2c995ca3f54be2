import { Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  assertOtpTokenAlgorithm,
  AuthenticatorKindName,
  Clock,
  NotFound,
  OTP_TOKEN_DIGITS,
  OtpTokenKind,
  parseOtpTokenKind,
  parseRecordId,
  RecordId,
  ValidationFailed,
} from '@twofold/domain';
import { journalDetails, journalFacts } from '@twofold/journal';
import { AuthenticatorEntity, AuthenticatorsRepository, SecretCipher, UserEntity, UsersRepository } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { AppMetrics } from '../metrics/app-metrics';
import {
  AuthenticatorDto,
  AuthenticatorsByKindDto,
  CopiedTokenDto,
  RegisteredTokenDto,
  toAuthenticatorDto,
  toAuthenticatorsByKindDto,
} from './authenticators.dto';
import { AuthenticatorKindPath, AuthenticatorPath, RegisterTokenCommand, UpdateAuthenticatorCommand } from './authenticators.commands';

/**
 * Authenticators of users. The path comes parsed (its kind, and
 * ids that are UUIDs); every id must belong to the caller's account and the authenticator to the path's
 * user and kind, else 404. Changing handlers run
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
    private readonly metrics: AppMetrics,
  ) {}

  async list(accountId: AccountId, userId: RecordId): Promise<AuthenticatorsByKindDto> {
    const user = await this.findUser(accountId, userId);
    const rows = await this.authenticators.listByUser(accountId, user.id);
    return toAuthenticatorsByKindDto(rows, await this.users.phoneRowsOf(accountId, user.id));
  }

  async registerToken(
    accountId: AccountId,
    { userId, kind }: AuthenticatorKindPath<OtpTokenKind>,
    command: RegisterTokenCommand,
  ): Promise<RegisteredTokenDto> {
    const { name, key, privateId } = command;
    try {
      journalDetails.add({ AuthenticatorKind: kind });
      const user = await this.findUser(accountId, userId);
      journalDetails.add({ AuthenticatorName: name });
      const algorithm = assertOtpTokenAlgorithm(kind, command.algorithm);
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
      journalDetails.add({ ...journalFacts.authenticator(created), AuthenticatorAlgorithm: algorithm });
      return { id: created.id };
    } finally {
      key.fill(0);
      privateId?.fill(0);
    }
  }

  /** PUT: a rename, or with `user` a move of an OTP token to that user (and a rename if `name` is given). */
  async update(accountId: AccountId, path: AuthenticatorPath, command: UpdateAuthenticatorCommand): Promise<'renamed' | 'moved'> {
    if (command.kind === 'move') {
      await this.move(accountId, path, command);
      return 'moved';
    }
    const { userId, kind, authenticatorId: id } = path;
    if (kind === 'Sms')
      await this.refuseSmsChange(
        accountId,
        userId,
        id,
        'An SMS authenticator is a phone number: change it with the phone endpoints of the user API.',
      );
    const { authenticator } = await this.find(accountId, userId, kind, id);
    const { name } = command;
    journalDetails.add({ AuthenticatorName: name, AuthenticatorPreviousName: authenticator.name });
    await this.authenticators.rename(accountId, authenticator.id, name);
    return 'renamed';
  }

  /**
   * Disable: the authenticator stays listed and keeps its secret and replay state, but no
   * code of it is accepted; enable undoes it. Either is idempotent. A phone (`Sms`) is not disabled:
   * it is removed through the phone endpoints.
   */
  async setDisabled(accountId: AccountId, path: AuthenticatorPath, disabled: boolean): Promise<AuthenticatorDto> {
    const { userId, kind, authenticatorId: id } = path;
    if (kind === 'Sms')
      await this.refuseSmsChange(
        accountId,
        userId,
        id,
        'An SMS authenticator is a phone number: remove it with the phone endpoints of the user API.',
      );
    const { authenticator } = await this.find(accountId, userId, kind, id, { lock: true });
    await this.authenticators.setDisabled(accountId, authenticator.id, disabled);
    return toAuthenticatorDto({ ...authenticator, disabled });
  }

  async delete(accountId: AccountId, { userId, kind, authenticatorId: id }: AuthenticatorPath): Promise<void> {
    if (kind === 'Sms' && (await this.deleteSmsPhone(accountId, userId, id))) return;
    const { authenticator } = await this.find(accountId, userId, kind, id);
    await this.authenticators.delete(accountId, authenticator.id);
    if (authenticator.kind === 'MobileApp') this.metrics.mobileAppDevice('removed');
  }

  /** DELETE of a kind: every authenticator of that kind of the user; none is not an error. Returns how many. */
  async deleteKind(accountId: AccountId, { userId, kind }: AuthenticatorKindPath): Promise<number> {
    journalDetails.add({ AuthenticatorKind: kind });
    const user = await this.findUser(accountId, userId, { lock: kind === 'Sms' });
    const removed: { id: string }[] = await this.authenticators.deleteKind(accountId, user.id, kind);
    if (kind === 'Sms') removed.push(...(await this.users.deleteAllPhones(accountId, user.id)));
    if (kind === 'MobileApp') removed.forEach(() => this.metrics.mobileAppDevice('removed'));
    journalDetails.add({ AuthenticatorCount: String(removed.length) });
    if (removed.length > 0) journalDetails.add({ AuthenticatorIds: removed.map((row) => row.id).join(',') });
    return removed.length;
  }

  /** PATCH: a copy of the token for each target user, with the same secret and its own replay state. */
  async copyToken(
    accountId: AccountId,
    { userId, kind, authenticatorId: id }: AuthenticatorPath<OtpTokenKind>,
    targetIds: RecordId[],
  ): Promise<CopiedTokenDto> {
    const { user, authenticator } = await this.find(accountId, userId, kind, id, { lock: true });
    journalDetails.add({ TargetUserIds: targetIds.join(',') });
    if (targetIds.some((targetId) => targetId === user.id))
      throw new ValidationFailed('users must not name the user the token belongs to.');
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
        // a copy of a disabled token must not be a way around the disabling
        disabled: authenticator.disabled,
        createdAt: this.clock.now(),
      });
      copies.push({ userId: target.id, id: copy.id });
    }
    journalDetails.add({ CopyIds: copies.map((copy) => copy.id).join(',') });
    return { copies };
  }

  /**
   * A move is of an OTP token only. The target user is read here, once the token is found, so that
   * its refusal is journaled with the token named.
   */
  private async move(
    accountId: AccountId,
    path: AuthenticatorPath,
    { targetUserId, name }: Extract<UpdateAuthenticatorCommand, { kind: 'move' }>,
  ): Promise<void> {
    const kind = parseOtpTokenKind(path.kind);
    const { user, authenticator } = await this.find(accountId, path.userId, kind, path.authenticatorId, { lock: true });
    journalDetails.add({ TargetUserId: targetUserId });
    const [target] = await this.lockUsers(accountId, [parseRecordId(targetUserId, 'User')]);
    journalDetails.add(journalFacts.targetUser(target));
    if (name !== null && name !== authenticator.name) {
      journalDetails.add({ AuthenticatorName: name, AuthenticatorPreviousName: authenticator.name });
      await this.authenticators.rename(accountId, authenticator.id, name);
    }
    if (target.id !== user.id) await this.authenticators.moveToUser(accountId, authenticator.id, target.id);
  }

  /** SMS is the user's phone numbers: one is removed here, under the user row lock the phone endpoints take too. */
  private async deleteSmsPhone(accountId: AccountId, userId: RecordId, id: RecordId): Promise<boolean> {
    journalDetails.add({ AuthenticatorKind: 'Sms' });
    const user = await this.findUser(accountId, userId, { lock: true });
    journalDetails.add({ AuthenticatorId: id });
    return this.users.deletePhone(accountId, user.id, id);
  }

  /** A phone is changed (renamed, removed) through the phone endpoints only; an unknown id stays a 404. */
  private async refuseSmsChange(accountId: AccountId, userId: RecordId, id: RecordId, message: string): Promise<void> {
    const user = await this.findUser(accountId, userId);
    const phones = await this.users.phoneRowsOf(accountId, user.id);
    if (phones.some((phone) => phone.id === id)) throw new ValidationFailed(message);
  }

  private async findUser(accountId: AccountId, userId: RecordId, options: { lock?: boolean } = {}): Promise<UserEntity> {
    journalDetails.add({ UserId: userId });
    const user = options.lock ? await this.users.findByIdForUpdate(accountId, userId) : await this.users.findById(accountId, userId);
    if (!user) throw new NotFound('User');
    journalDetails.add(journalFacts.user(user));
    return user;
  }

  /** The path's user and its authenticator of the path's kind; anything else is 404. */
  private async find(
    accountId: AccountId,
    userId: RecordId,
    kind: AuthenticatorKindName | OtpTokenKind,
    authenticatorId: RecordId,
    options: { lock?: boolean } = {},
  ): Promise<{ user: UserEntity; authenticator: AuthenticatorEntity }> {
    journalDetails.add({ AuthenticatorKind: kind });
    const user = await this.findUser(accountId, userId);
    journalDetails.add({ AuthenticatorId: authenticatorId });
    const authenticator = options.lock
      ? await this.authenticators.findOfUserForUpdate(accountId, user.id, authenticatorId)
      : await this.authenticators.findOfUser(accountId, user.id, authenticatorId);
    if (!authenticator || authenticator.kind !== kind) throw new NotFound('Authenticator');
    journalDetails.add(journalFacts.authenticator(authenticator));
    return { user, authenticator };
  }

  /**
   * Target users of a move or copy, each locked (in id order, so parallel calls cannot deadlock) so
   * that none is deleted before the new rows reference it. Any id not of the account: 404, nothing done.
   */
  private async lockUsers(accountId: AccountId, ids: readonly RecordId[]): Promise<UserEntity[]> {
    const byId = new Map<string, UserEntity>();
    for (const id of [...ids].sort()) {
      const user = await this.users.findByIdForUpdate(accountId, id);
      if (!user) throw new NotFound('User');
      byId.set(id, user);
    }
    return ids.map((id) => byId.get(id) as UserEntity);
  }
}
