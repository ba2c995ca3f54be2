import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock, NotFound } from '@twofold/domain';
import { journalDetails } from '@twofold/journal';
import { SelfServiceRepository, ShowcaseLogoRow, ShowcaseRow, SupportInfoRow } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';

/**
 * What an account shows on its self-service portals: the support contact of the portal's error and
 * access-denied pages, and the showcase (tiles of the account's applications, with their logos). Set
 * with the account API key, read by the portals with their resource key.
 */
@Injectable()
export class SelfServiceSettingsService {
  constructor(
    private readonly settings: SelfServiceRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  supportInfo(accountId: AccountId): Promise<SupportInfoRow> {
    return this.settings.supportInfo(accountId);
  }

  async setSupportInfo(accountId: AccountId, info: SupportInfoRow): Promise<SupportInfoRow> {
    await this.settings.setSupportInfo(accountId, info);
    return info;
  }

  showcase(accountId: AccountId): Promise<ShowcaseRow> {
    return this.settings.showcase(accountId);
  }

  async setShowcase(accountId: AccountId, showcase: ShowcaseRow): Promise<ShowcaseRow> {
    journalDetails.add({ Enabled: String(showcase.enabled) });
    await this.settings.setShowcase(accountId, showcase);
    return showcase;
  }

  async logo(accountId: AccountId, name: string): Promise<ShowcaseLogoRow> {
    const logo = await this.settings.logo(accountId, name);
    if (!logo) throw new NotFound('Logo');
    return logo;
  }

  logoNames(accountId: AccountId): Promise<string[]> {
    return this.settings.logoNames(accountId);
  }

  async putLogo(accountId: AccountId, logo: ShowcaseLogoRow): Promise<{ name: string; contentType: string; size: number }> {
    journalDetails.add({ LogoName: logo.name });
    await this.settings.putLogo(accountId, logo, this.clock.now());
    return { name: logo.name, contentType: logo.contentType, size: logo.bytes.length };
  }

  async deleteLogo(accountId: AccountId, name: string): Promise<void> {
    journalDetails.add({ LogoName: name });
    if (!(await this.settings.deleteLogo(accountId, name))) throw new NotFound('Logo');
  }
}
