import { Clock, secondsUntil } from '@twofold/domain';
import { AuthFailuresRepository } from '@twofold/persistence';
import { createHash } from 'node:crypto';
import { addressNetworkOf } from '../http/client-address';

/** The 21st failed attempt within a minute from one client is refused, and all after it. */
export const AUTH_FAILURES_ALLOWED_PER_WINDOW = 20;
export const AUTH_THROTTLE_WINDOW_MS = 60_000;
/** bound on remembered blocks, so a flood of addresses cannot grow memory without limit */
const MAX_TRACKED_CLIENTS = 100_000;

/** The row of a client (address or /64) in `auth_failures`: the block that refuses right calls is kept per client only. */
function clientRowOf(ip: string): string {
  return `ip:${addressNetworkOf(ip)}`;
}

const isClientRow = (client: string): boolean => client.startsWith('ip:');

/** Whom failures are counted against: the client (address or /64) and the API key tried (hashed: it is input). */
export function throttledClients(ip: string, apiKey: string | undefined): string[] {
  const clients = [clientRowOf(ip)];
  if (apiKey) clients.push(`key:${createHash('sha256').update(apiKey).digest('hex').slice(0, 32)}`);
  return clients;
}

/** how many failed attempts between two clean-ups of ended windows (the table only grows on failures) */
const FAILURES_PER_CLEANUP = 1000;

/**
 * Failed Basic-auth attempts, counted in the database so that every instance enforces
 * one limit:
 * - per client (IPv4 address or IPv6 /64): the 21st failure within the window is 429, and from then
 *   on, to the end of the window, every attempt of that client is refused before its credentials are
 *   looked at, right or wrong. Up to the 20th failure a right call is 200.
 * - per API key (from any address): from the 21st failure on, a failed attempt is 429 instead of 401;
 *   right calls with that key stay 200, so nobody can lock an integration out by guessing its secret.
 * Successful calls neither count nor reset, and never touch the database: the block that refuses
 * them is remembered by the instance that saw the limit crossed, and each other instance learns it
 * from the count at the client's next failure there.
 */
export class AuthThrottle {
  private readonly blockedUntil = new Map<string, number>();
  private failuresSinceCleanup = 0;

  constructor(
    private readonly clock: Clock,
    private readonly failures: AuthFailuresRepository,
  ) {}

  /** Seconds until a blocked client may try again, or 0 when it may try now. */
  retryAfterSeconds(ip: string): number {
    // asked on every Basic-auth call, and nobody is blocked almost always: the address is not parsed then
    if (this.blockedUntil.size === 0) return 0;
    const key = clientRowOf(ip);
    const until = this.blockedUntil.get(key);
    if (until === undefined) return 0;
    const now = this.clock.now().getTime();
    if (until <= now) {
      this.blockedUntil.delete(key);
      return 0;
    }
    return secondsUntil(until, now);
  }

  /** Counts a failed attempt; returns the seconds to wait when it is one too many (429), else 0 (401). */
  async recordFailure(ip: string, apiKey: string | undefined): Promise<number> {
    const now = this.clock.now();
    const counts = await this.failures.record(throttledClients(ip, apiKey), now, AUTH_THROTTLE_WINDOW_MS);
    await this.cleanUpNowAndThen(now);
    let wait = 0;
    for (const count of counts) {
      if (count.failures <= AUTH_FAILURES_ALLOWED_PER_WINDOW) continue;
      const until = count.windowStartedAt.getTime() + AUTH_THROTTLE_WINDOW_MS;
      wait = Math.max(wait, secondsUntil(until, now.getTime()));
      if (isClientRow(count.client)) this.block(count.client, until);
    }
    return wait;
  }

  private block(client: string, until: number): void {
    if (this.blockedUntil.size >= MAX_TRACKED_CLIENTS) this.evictEnded();
    if (this.blockedUntil.size >= MAX_TRACKED_CLIENTS) this.blockedUntil.delete(this.blockedUntil.keys().next().value as string);
    this.blockedUntil.set(client, until);
  }

  private evictEnded(): void {
    const now = this.clock.now().getTime();
    for (const [client, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(client);
  }

  private async cleanUpNowAndThen(now: Date): Promise<void> {
    this.failuresSinceCleanup += 1;
    if (this.failuresSinceCleanup < FAILURES_PER_CLEANUP) return;
    this.failuresSinceCleanup = 0;
    await this.failures.deleteEndedBefore(new Date(now.getTime() - AUTH_THROTTLE_WINDOW_MS));
  }
}
