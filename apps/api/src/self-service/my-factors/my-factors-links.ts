import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock } from '@twofold/domain';
import { SelfServiceRepository } from '@twofold/persistence';
import { APP_CONFIG, CLOCK } from '../../config/injection-tokens';
import { AppConfig } from '../../config/app-config';

/** How long a "my factors" link opens its page: the portal sends the user there at once. */
export const MY_FACTORS_PAGE_TTL_MINUTES = 15;

export function myFactorsTokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * The links of the "my factors" page (`$ACCESS_URL/my-factors/<token>`), made for the user of a
 * portal's Bearer token. The token is 256 random bits and stored only as its SHA-256; a new link ends
 * the user's older ones.
 */
@Injectable()
export class MyFactorsLinks {
  constructor(
    private readonly pages: SelfServiceRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(accountId: AccountId, userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.pages.insertMyFactorsPage(accountId, {
      userId,
      tokenHash: myFactorsTokenHash(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + MY_FACTORS_PAGE_TTL_MINUTES * 60_000),
    });
    return `${this.config.accessUrl}/my-factors/${token}`;
  }
}
