import { Inject, Injectable } from '@nestjs/common';
import { AccountId } from '@twofold/domain';
import { AuthenticatorsRepository, UserEntity, UsersRepository } from '@twofold/persistence';
import { AccessTokenHolder } from '../auth/access-token-holder';
import { APP_CONFIG } from '../config/injection-tokens';
import { AppConfig } from '../config/app-config';
import { ModelEnvelope, ok, refused } from '../http/envelope';
import { PortalFactorLists, portalFactorListsOf } from './self-service-factors';

/** The message the portals look for when the user of a token or identity does not exist (any more). */
export const USER_NOT_REGISTERED = 'UserNotRegistered';

/**
 * What the user may do, as the portals read it. Twofold has no per-resource permissions: every
 * resource is permitted. The older portals' kinds say which factors the user may set up from the
 * portal: an authenticator app always, Telegram when a bot is configured, no mobile app or phone.
 */
export interface PortalPolicy {
  allResourcesPermitted: boolean;
  permittedResources: string[];
  totp: boolean;
  telegram: boolean;
  mobileApp: boolean;
  phone: boolean;
}

export interface PortalProfile extends PortalFactorLists {
  id: string;
  identity: string;
  name: string | null;
  email: string | null;
  policy: PortalPolicy;
}

/** The portal's profile of the token's user, and the factors of a user named by the portal's resource. */
@Injectable()
export class SelfServiceProfileService {
  constructor(
    private readonly users: UsersRepository,
    private readonly authenticators: AuthenticatorsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** GET /self-service: the token's user, or UserNotRegistered once that user was deleted. */
  async profile(holder: AccessTokenHolder): Promise<ModelEnvelope<PortalProfile | null>> {
    const user = await this.userOf(holder);
    if (!user) return refused(USER_NOT_REGISTERED);
    return ok({
      id: user.id,
      identity: user.identity,
      name: user.name,
      email: user.email,
      policy: this.policy(),
      ...(await this.factorsOf(user.accountId, user.id)),
    });
  }

  /** POST /self-service/user-authenticators `{identity}` with the portal's resource key. */
  async factorsOfIdentity(accountId: AccountId, identity: string): Promise<ModelEnvelope<PortalFactorLists | null>> {
    const user = await this.users.findByIdentity(accountId, identity);
    if (!user) return refused(USER_NOT_REGISTERED);
    return ok(await this.factorsOf(accountId, user.id));
  }

  /** The token's user: the user of the grant the token was issued for, null once deleted. */
  async userOf(holder: AccessTokenHolder): Promise<UserEntity | null> {
    return holder.userId ? this.users.findById(holder.accountId, holder.userId) : null;
  }

  async factorsOf(accountId: AccountId, userId: string): Promise<PortalFactorLists> {
    const rows = await this.authenticators.listByUser(accountId, userId);
    return portalFactorListsOf(rows, await this.users.phoneRowsOf(accountId, userId));
  }

  private policy(): PortalPolicy {
    return {
      allResourcesPermitted: true,
      permittedResources: [],
      totp: true,
      telegram: this.config.telegram !== undefined,
      mobileApp: false,
      phone: false,
    };
  }
}
