import { Inject, Injectable } from '@nestjs/common';
import { accessRequestExpiresAt, AuthenticationMethod, Clock, PRODUCT_NAME } from '@twofold/domain';
import { AccessRequestEntity, AccessRequestsRepository, AccountsRepository, ResourcesRepository, UserEntity } from '@twofold/persistence';
import { CLOCK } from '../../config/injection-tokens';
import { AuthenticatorAppEnrollment } from '../../enrollment/authenticator-app';
import { AccessTokensService } from '../../tokens/access-tokens.service';
import { AccessFormTokens, FORM_TOKEN_FIELD } from './access-form-token';
import { TelegramEnrollment } from '../../telegram/telegram-enrollment';
import { MobileAppEnrollment } from '../../mobile-app/mobile-app-enrollment';
import { AccessPhoneModel } from './access-page-phone.view';
import { AccessCodeError, AccessCodeModel, AccessEnrollModel, AccessExpiry } from './access-page.view';

/** What the access page's views hold: the enrollment, the code prompt, and the granted page's AccessToken. */
@Injectable()
export class AccessPageViews {
  constructor(
    private readonly requests: AccessRequestsRepository,
    private readonly accounts: AccountsRepository,
    private readonly resources: ResourcesRepository,
    private readonly authenticatorApp: AuthenticatorAppEnrollment,
    private readonly accessTokens: AccessTokensService,
    private readonly formTokens: AccessFormTokens,
    private readonly telegram: TelegramEnrollment,
    private readonly mobileApp: MobileAppEnrollment,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The authenticator app to enroll: the secret offered on this request (kept once shown), as a QR code, text and link. */
  async enroll(
    row: AccessRequestEntity,
    user: UserEntity,
    browserNonce: string,
    error?: { attemptsLeft: number },
  ): Promise<AccessEnrollModel> {
    let pendingEnc = await this.requests.pendingSecret(row.accountId, row.id);
    if (!pendingEnc) {
      await this.requests.setPendingSecretOnce(row.accountId, row.id, this.authenticatorApp.newPendingSecret());
      pendingEnc = (await this.requests.pendingSecret(row.accountId, row.id)) as Buffer;
    }
    // the authenticator-app entry is issued by the account's display name
    const brand = (await this.accounts.displayNameOf(row.accountId)) ?? PRODUCT_NAME;
    // a single-use link expiring with the page; the page asks whether it bound (`<id>/telegram?link=`)
    const offer = await this.telegram.offer(row.accountId, user.id, accessRequestExpiresAt(row.createdAt));
    const telegram = offer
      ? { url: offer.url, qrSvg: offer.qrSvg, statePath: `${encodeURIComponent(row.id)}/telegram?link=${offer.linkId}` }
      : undefined;
    // the same for the app: one token per page shown, the page asks whether it enrolled (`<id>/mobile-app?token=`)
    const app = await this.mobileApp.offer(row.accountId, user.id, accessRequestExpiresAt(row.createdAt));
    const mobileApp = app
      ? { url: app.url, qrSvg: app.qrSvg, statePath: `${encodeURIComponent(row.id)}/mobile-app?token=${app.tokenId}` }
      : undefined;
    return {
      ...(telegram ? { telegram } : {}),
      ...(mobileApp ? { mobileApp } : {}),
      resourceName: await this.resourceName(row),
      holder: user.name ?? user.identity,
      ...(await this.authenticatorApp.setup(pendingEnc, { issuer: brand, account: user.identity })),
      hidden: { [FORM_TOKEN_FIELD]: this.formTokens.issue(row.id, browserNonce) },
      expiry: this.expiry(row),
      ...(error ? { error } : {}),
    };
  }

  async code(
    row: AccessRequestEntity,
    browserNonce: string,
    error?: AccessCodeError,
    phone?: AccessPhoneModel | null,
  ): Promise<AccessCodeModel> {
    return {
      ...(phone ? { phone } : {}),
      resourceName: await this.resourceName(row),
      identity: row.identity,
      hidden: { [FORM_TOKEN_FIELD]: this.formTokens.issue(row.id, browserNonce) },
      expiry: this.expiry(row),
      ...(error ? { error } : {}),
    };
  }

  /**
   * The AccessToken of a granted request, signed as the resource's token format says: `sub` is the user's stored identity,
   * whatever spelling the request used; `amr` says how the user got it (a code, or a bypass).
   */
  async accessToken(row: AccessRequestEntity, user: UserEntity, now: Date, amr: readonly AuthenticationMethod[]): Promise<string> {
    const resource = await this.resources.findById(row.accountId, row.resourceId);
    if (!resource) throw new Error('the resource of an access request is gone');
    return this.accessTokens.sign(resource, { identity: user.identity, jti: row.id, claims: row.claims ?? {}, now, amr });
  }

  /** The page shows the minutes left, by the injected clock. */
  private expiry(row: AccessRequestEntity): AccessExpiry {
    return { at: accessRequestExpiresAt(row.createdAt), now: this.clock.now() };
  }

  private async resourceName(row: AccessRequestEntity): Promise<string> {
    return (await this.resources.findById(row.accountId, row.resourceId))?.name ?? PRODUCT_NAME;
  }
}
