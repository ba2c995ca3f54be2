import { Injectable } from '@nestjs/common';
import { AccountId } from '@twofold/domain';
import { journalDetails } from '@twofold/journal';
import { AccountsRepository } from '@twofold/persistence';

export interface DirectorySyncDto {
  enabled: boolean;
}

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
}
