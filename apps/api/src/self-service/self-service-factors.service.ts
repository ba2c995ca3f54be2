import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock, NotFound, OTP_TOKEN_DIGITS, PRODUCT_NAME, TOTP_WINDOW_STEPS } from '@twofold/domain';
import { JournalWriter } from '@twofold/journal';
import { generateOtpauthUri, generateSecret, verifyTotp } from '@twofold/otp';
import { AccountsRepository, AuthenticatorsRepository, SecretCipher, UserEntity, UsersRepository } from '@twofold/persistence';
import { AccessTokenHolder } from '../auth/access-token-holder';
import { CLOCK } from '../config/injection-tokens';
import { AppMetrics } from '../metrics/app-metrics';
import { AuthenticatorAppEnrollment } from '../enrollment/authenticator-app';
import { ModelEnvelope, ok, refused } from '../http/envelope';
import { factorCount, PortalFactorKind, PortalFactorLists, portalKindOf } from './self-service-factors';
import { SelfServiceProfileService, USER_NOT_REGISTERED } from './self-service-profile.service';
import { openTotpKey, sealTotpKey } from './sealed-totp-key';

export const FACTOR_REFUSALS = {
  wrongCode: 'Wrong code.',
  lastFactor: 'The last second factor cannot be removed.',
} as const;

/**
 * The older portals' own factor management, with the user's Bearer token: a new authenticator app
 * (`totp/new` gives a sealed key and its QR link, `totp` adds the app on its first right code) and
 * the removal of a factor, never the last one.
 */
@Injectable()
export class SelfServiceFactorsService {
  constructor(
    private readonly profiles: SelfServiceProfileService,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsRepository,
    private readonly authenticators: AuthenticatorsRepository,
    private readonly enrollment: AuthenticatorAppEnrollment,
    private readonly journal: JournalWriter,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: AppMetrics,
  ) {}

  async newTotp(holder: AccessTokenHolder): Promise<ModelEnvelope<{ key: string; link: string } | null>> {
    const user = await this.profiles.userOf(holder);
    if (!user) return refused(USER_NOT_REGISTERED);
    const secret = generateSecret({ bytes: 20 });
    const issuer = (await this.accounts.displayNameOf(holder.accountId)) ?? PRODUCT_NAME;
    return ok({
      key: sealTotpKey(this.cipher, { accountId: holder.accountId, userId: user.id }, secret, this.clock.now()),
      link: generateOtpauthUri({ type: 'totp', issuer, account: user.identity, secret }),
    });
  }

  /** The app of the sealed key, once its code is right; the code's time step is spent. Answers the user's factors. */
  async addTotp(holder: AccessTokenHolder, key: unknown, otp: unknown): Promise<ModelEnvelope<PortalFactorLists | null>> {
    const user = await this.lockedUserOf(holder);
    if (!user) return refused(USER_NOT_REGISTERED);
    const now = this.clock.now();
    const secret = openTotpKey(this.cipher, { accountId: holder.accountId, userId: user.id }, key, now);
    const code = typeof otp === 'string' ? otp.replace(/\s+/g, '') : '';
    const result = verifyTotp({ secret, code, time: now.getTime(), window: TOTP_WINDOW_STEPS, digits: OTP_TOKEN_DIGITS });
    if (!result.valid) return refused(FACTOR_REFUSALS.wrongCode);
    const secretEnc = this.cipher.encrypt('authenticator.secret', secret);
    await this.enrollment.complete(holder.accountId, user, secretEnc, result.timeStep, now, { Source: 'self-service' });
    return ok(await this.profiles.factorsOf(holder.accountId, user.id));
  }

  /** One factor of the user's, of the kind the path names; never the last one. Answers the user's factors. */
  async remove(holder: AccessTokenHolder, kind: PortalFactorKind, id: string): Promise<ModelEnvelope<PortalFactorLists | null>> {
    const user = await this.lockedUserOf(holder);
    if (!user) return refused(USER_NOT_REGISTERED);
    const removed = await this.removeOf(holder.accountId, user, id, kind);
    if (removed === 'last') return refused(FACTOR_REFUSALS.lastFactor);
    return ok(await this.profiles.factorsOf(holder.accountId, user.id));
  }

  /**
   * Removes one of the user's factors (of `kind` when given), journaled as `Authenticator Disable` with
   * `Source: self-service`; 'last' when it is the user's only one, which is kept. The caller holds the
   * user's row lock: two removals at once cannot each leave the other's factor as the last.
   */
  async removeOf(accountId: AccountId, user: UserEntity, id: string, kind?: PortalFactorKind): Promise<'removed' | 'last'> {
    const lists = await this.profiles.factorsOf(accountId, user.id);
    const listed = Object.values(lists)
      .flat()
      .some((factor) => factor.id === id);
    if (!listed) throw new NotFound('Authenticator');
    if (factorCount(lists) <= 1) return 'last';
    const authenticator = await this.authenticators.findOfUser(accountId, user.id, id);
    if (authenticator && (kind === undefined || portalKindOf(authenticator.kind) === kind)) {
      await this.authenticators.delete(accountId, authenticator.id);
      if (authenticator.kind === 'MobileApp') this.metrics.mobileAppDevice('removed');
    } else if (!((kind === undefined || kind === 'phone') && (await this.users.deletePhone(accountId, user.id, id)))) {
      throw new NotFound('Authenticator');
    }
    await this.journal.record(accountId, {
      object: 'Authenticator',
      action: 'Disable',
      subject: user.identity,
      success: true,
      additionalFields: { UserId: user.id, AuthenticatorId: id, AuthenticatorKind: authenticator?.kind ?? 'Sms', Source: 'self-service' },
    });
    return 'removed';
  }

  /** The token's user, locked: two removals at once cannot each leave the other's factor as the last. */
  private async lockedUserOf(holder: AccessTokenHolder): Promise<UserEntity | null> {
    return holder.userId ? this.users.findByIdForUpdate(holder.accountId, holder.userId) : null;
  }
}
