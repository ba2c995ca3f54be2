import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock, InputFields, parseUserIdentity, validateClaims, ValidationFailed } from '@twofold/domain';
import { AccessRequestPurpose, AuthenticatorsRepository, SelfServiceRepository, UsersRepository } from '@twofold/persistence';
import { ResourcePrincipal } from '../auth/principal';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';
import { AppConfig } from '../config/app-config';
import { ModelEnvelope, ok, refused } from '../http/envelope';
import { USER_NOT_REGISTERED } from './self-service-profile.service';

export type RecoveryPurpose = Exclude<AccessRequestPurpose, 'signIn'>;

/** The claim each recovery sets to "true", which the portal looks for in the token. */
const PURPOSE_CLAIM: Record<RecoveryPurpose, string> = { resetPassword: 'resetPassword', unlockUser: 'unlockUser' };

export interface RecoveryCommand {
  identity: string;
  callbackUrl: string;
  claims: Record<string, unknown>;
}

/** `{identity, callbackUrl, claims}`, names in any case; the callback an absolute http(s) URL. */
export function parseRecovery(body: unknown, format: Parameters<typeof parseUserIdentity>[1]): RecoveryCommand {
  const fields = InputFields.ofBody(body);
  const identity = parseUserIdentity(fields.get('identity'), format);
  const raw = fields.get('callbackUrl');
  let url: URL | null = null;
  try {
    url = typeof raw === 'string' ? new URL(raw.trim()) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
    throw new ValidationFailed('callbackUrl must be an absolute http or https URL.');
  return { identity, callbackUrl: url.href, claims: validateClaims(fields.get('claims')) };
}

/**
 * A portal's password reset or account unlock: an access request whose page posts the token to
 * `callbackUrl`, with the portal's claims. The portal then changes the directory password or unlocks
 * the account on the strength of that token alone, so the request is made only for a user who already
 * has a factor the page can check: it never enrolls one (whoever knows a login whose owner has none yet
 * would enroll their own and take the account), and a Bypass IP list never skips it.
 */
@Injectable()
export class SelfServiceRecoveryService {
  constructor(
    private readonly users: UsersRepository,
    private readonly authenticators: AuthenticatorsRepository,
    private readonly requests: SelfServiceRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async start(
    principal: ResourcePrincipal,
    purpose: RecoveryPurpose,
    command: RecoveryCommand,
  ): Promise<ModelEnvelope<{ url: string } | null>> {
    const user = await this.users.findByIdentity(principal.accountId, command.identity);
    if (!user) return refused(USER_NOT_REGISTERED);
    if (user.isLocked) return refused(await this.withSupport(principal.accountId, 'The user is locked.'));
    if (!(await this.hasCodeFactor(principal.accountId, user.id)))
      return refused(
        await this.withSupport(principal.accountId, 'The user has no second factor that can confirm this, and one cannot be set up here.'),
      );
    // the purpose's claim is the service's, not the portal's: a reset never carries the unlock's flag
    const claims: Record<string, unknown> = { ...command.claims };
    for (const claim of Object.values(PURPOSE_CLAIM)) delete claims[claim];
    claims[PURPOSE_CLAIM[purpose]] = 'true';
    const id = await this.requests.insertRecoveryRequest(principal.accountId, {
      resourceId: principal.resourceId,
      userId: user.id,
      identity: user.identity,
      purpose,
      claims,
      callbackAction: command.callbackUrl,
      createdAt: this.clock.now(),
    });
    return ok({ url: `${this.config.accessUrl}/${id}` });
  }

  /** A TOTP or HOTP authenticator the administrator did not disable: the access page can check its code. */
  private async hasCodeFactor(accountId: AccountId, userId: string): Promise<boolean> {
    const rows = await this.authenticators.listByUser(accountId, userId);
    return rows.some((row) => !row.disabled && row.secretEnc !== null && ['Totp', 'TotpToken', 'HotpToken'].includes(row.kind));
  }

  /** The refusal with the account's support contact, which the portal shows to the user. */
  private async withSupport(accountId: AccountId, reason: string): Promise<string> {
    const info = await this.requests.supportInfo(accountId);
    const contact = [info.adminName, info.adminEmail, info.adminPhone].filter((part) => part !== null).join(', ');
    return contact ? `${reason} Contact your administrator: ${contact}.` : `${reason} Contact your administrator.`;
  }
}
