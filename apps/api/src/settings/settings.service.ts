import { Injectable } from '@nestjs/common';
import { AccountId, effectiveDisplayName, NotFound } from '@twofold/domain';
import { journalDetails } from '@twofold/journal';
import { AccountsRepository } from '@twofold/persistence';
import { BrandingDto, DirectorySyncDto } from './settings.dto';

@Injectable()
export class SettingsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async directorySync(accountId: AccountId): Promise<DirectorySyncDto> {
    const account = await this.accounts.findById(accountId);
    return { enabled: account?.directorySync ?? false };
  }

  async setDirectorySync(accountId: AccountId, enabled: boolean): Promise<DirectorySyncDto> {
    journalDetails.add({ Enabled: String(enabled) });
    await this.accounts.setDirectorySync(accountId, enabled);
    return { enabled };
  }

  async branding(accountId: AccountId): Promise<BrandingDto> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new NotFound('Account');
    return { displayName: effectiveDisplayName(account), isDefault: account.displayName === null };
  }

  /** null: back to the account's name. The journal keeps the name shown before and after. */
  async setBranding(accountId: AccountId, displayName: string | null): Promise<BrandingDto> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new NotFound('Account');
    const next = { ...account, displayName };
    journalDetails.add({ PreviousDisplayName: effectiveDisplayName(account), DisplayName: effectiveDisplayName(next) });
    await this.accounts.setDisplayName(accountId, displayName);
    return { displayName: effectiveDisplayName(next), isDefault: displayName === null };
  }
}
