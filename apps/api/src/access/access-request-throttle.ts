import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Clock, secondsUntil } from '@twofold/domain';
import { AccessRequestRatesRepository } from '@twofold/persistence';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';
import { ResourcePrincipal } from '../auth/principal';
import { AppConfig, DEFAULT_ACCESS_REQUESTS_PER_MINUTE } from '../config/app-config';
import { TooManyAccessRequests } from '../http/api-errors';

export const ACCESS_REQUEST_RATE_WINDOW_MS = 60_000;

/**
 * A resource may create this many access requests a minute per licence of its account. A resource
 * (a VPN concentrator, a web portal) creates a request per sign-in of one of the account's users, and
 * the users are bounded by the licences: even a 9 a.m. peak where every user signs in within the same
 * minute, each one retrying a mistyped code, stays under 4 per licence. A fixed limit could not be right
 * for both a 10-user account and a 50 000-user one.
 */
export const ACCESS_REQUESTS_PER_LICENSE_PER_MINUTE = 4;

/** The limit of a resource whose account has `licenses`: the floor, or 4 per licence when that is more. */
export function accessRequestLimit(floor: number, licenses: number): number {
  return Math.max(floor, ACCESS_REQUESTS_PER_LICENSE_PER_MINUTE * licenses);
}

/**
 * Access requests one resource may create a minute: ACCESS_REQUESTS_PER_MINUTE (the floor), or
 * 4 per licence of its account when that is more (accessRequestLimit); counted in the
 * database so that N instances enforce one limit. A resource key holder could otherwise
 * fill the history, the journal and the licences as fast as the API answers.
 * - The licences are read by the counting statement itself, so a change of them applies at the next
 *   count.
 * - Each instance adds its requests to the shared count in batches of 1% of the floor (one statement
 *   per 60 requests at the default), so the hot path rarely pays a round trip; N instances may admit
 *   up to N batches more than the limit in a window. A floor under 200 is counted request by request.
 * - Once over the limit, an instance refuses that resource from memory until the window ends: a flood
 *   costs no query.
 */
@Injectable()
export class AccessRequestThrottle {
  /** ACCESS_REQUESTS_PER_MINUTE: the limit of a resource whose account has few licences */
  private readonly floor: number;
  private readonly batch: number;
  /** resource id → end of its window, for resources over the limit */
  private readonly blockedUntil = new Map<string, number>();
  /** resource id → requests admitted here and not yet added to the shared count */
  private readonly uncounted = new Map<string, number>();

  constructor(
    private readonly rates: AccessRequestRatesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.floor = config.accessRequestsPerMinute ?? DEFAULT_ACCESS_REQUESTS_PER_MINUTE;
    // 1% of the floor: the smallest limit any resource has, so no resource passes its own by more
    this.batch = Math.max(1, Math.floor(this.floor / 100));
  }

  /** Counts one request of the resource; returns the seconds to wait when it is one too many, else 0. */
  async admit(resourceId: string): Promise<number> {
    const now = this.clock.now().getTime();
    const blocked = this.blockedUntil.get(resourceId);
    if (blocked !== undefined) {
      if (blocked > now) return secondsUntil(blocked, now);
      this.blockedUntil.delete(resourceId);
    }
    const admitted = (this.uncounted.get(resourceId) ?? 0) + 1;
    if (admitted < this.batch) {
      this.uncounted.set(resourceId, admitted);
      return 0;
    }
    this.uncounted.delete(resourceId);
    const rate = await this.rates.count(resourceId, new Date(now), ACCESS_REQUEST_RATE_WINDOW_MS, admitted);
    if (rate.created <= accessRequestLimit(this.floor, rate.licenses)) return 0;
    const until = rate.windowStartedAt.getTime() + ACCESS_REQUEST_RATE_WINDOW_MS;
    // both maps are bounded by the number of resources, which the accounts' owners create
    this.blockedUntil.set(resourceId, until);
    return secondsUntil(until, now);
  }
}

/**
 * On the routes that create an access request (`POST /access/requests`, `/ra`, `/md`), after the
 * resource's credentials are checked: 429 with `Retry-After`, which every client reads as Denied,
 * never as an outage.
 */
@Injectable()
export class AccessRequestRateGuard implements CanActivate {
  constructor(private readonly throttle: AccessRequestThrottle) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const principal = context.switchToHttp().getRequest<{ user: ResourcePrincipal }>().user;
    const wait = await this.throttle.admit(principal.resourceId);
    if (wait > 0) throw new TooManyAccessRequests(wait);
    return true;
  }
}
