import { Inject, Injectable } from '@nestjs/common';
import { AccountId } from '@twofold/domain';
import { MobileAppDevicesRepository } from '@twofold/persistence';
import { toString as qrSvg } from 'qrcode';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/injection-tokens';
import { MobileAppService } from './mobile-app.service';

/** What a page shows to enroll a phone: the app's link carrying a single-use token, its QR code, and the token to wait for. */
export interface MobileAppOffer {
  /** the token's row id: what the page's check names (never the token itself) */
  tokenId: string;
  /** `<ACCESS_URL>/app/#enroll=<token>`: the app reads the token from the fragment, which no server or log sees */
  url: string;
  qrSvg: string;
}

/** The link the app opens: the fragment keeps the token out of request lines, access logs and Referer headers. */
export function mobileAppEnrollmentUrl(accessUrl: string, token: string): string {
  return `${accessUrl}/app/#enroll=${token}`;
}

const TOKEN_ID = /^[0-9a-f-]{36}$/i;

/**
 * The Twofold Authenticator offered on the pages that enroll a factor (the enrollment link's page, the
 * access page's first visit, my factors): one single-use enrollment token per page shown, expiring
 * with the page, as a QR code and a link for the same phone; and whether that token has enrolled a
 * device yet, which the page asks without a reload. Offered whenever MOBILE_APP_OFFER is not turned
 * off: Web Push needs no configuration of ours.
 */
@Injectable()
export class MobileAppEnrollment {
  constructor(
    private readonly mobileApp: MobileAppService,
    private readonly devices: MobileAppDevicesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get enabled(): boolean {
    return this.config.mobileAppOffer !== false;
  }

  /** A new token for the user, expiring with the page that shows it; null when the offer is turned off. */
  async offer(accountId: AccountId, userId: string, expiresAt: Date): Promise<MobileAppOffer | null> {
    if (!this.enabled) return null;
    const issued = await this.mobileApp.createEnrollmentToken(accountId, userId, expiresAt);
    const url = mobileAppEnrollmentUrl(this.config.accessUrl, issued.token);
    return { tokenId: issued.id, url, qrSvg: await qrSvg(url, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' }) };
  }

  /** Whether the user's token `tokenId` has enrolled a device; false for a token of anyone else. */
  async enrolled(accountId: AccountId, userId: string | null, tokenId: string): Promise<boolean> {
    if (!userId || !TOKEN_ID.test(tokenId)) return false;
    const token = await this.devices.findToken(accountId, tokenId);
    return token !== null && token.userId === userId && token.usedAt !== null && token.authenticatorId !== null;
  }
}
