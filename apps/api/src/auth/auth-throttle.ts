import { Clock } from '@twofold/domain';
import { isIP } from 'node:net';

/** CONTRACT §4: the 21st failed attempt within a minute from one client IP is refused, and all after it. */
export const AUTH_FAILURES_ALLOWED_PER_WINDOW = 20;
export const AUTH_THROTTLE_WINDOW_MS = 60_000;
/** bound on remembered clients, so a flood of addresses cannot grow memory without limit */
const MAX_TRACKED_CLIENTS = 100_000;

/**
 * Whom a failure is counted against: an IPv4 address, or an IPv6 address's /64 network. One host
 * is handed a whole /64 (SLAAC, privacy addresses), so counting exact IPv6 addresses would give an
 * attacker 2^64 fresh budgets (issue 13, finding 8). An IPv4-mapped IPv6 address counts as its IPv4.
 */
export function throttleKeyOf(ip: string): string {
  const address = ip.split('%')[0].toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail] = address.split('::');
  const groups = (text: string | undefined) => (text ? text.split(':') : []);
  const width = (list: string[]) => list.reduce((sum, group) => sum + (group.includes('.') ? 2 : 1), 0);
  const left = groups(head);
  const right = groups(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - width(left) - width(right)).fill('0');
  const network = [...left, ...zeros, ...right].slice(0, 4).map((group) => parseInt(group, 16).toString(16));
  return `${network.join(':')}::/64`;
}

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Failed Basic-auth attempts per client (IPv4 address or IPv6 /64, `throttleKeyOf`) in a window that starts at the first failure. While a
 * client is over the limit every attempt is refused, right or wrong: otherwise a correct guess would
 * still be told apart from wrong ones. Successful calls neither count nor reset.
 * Per process: behind several API processes the effective limit is per process.
 */
export class AuthThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  /** Seconds until the client may try again, or 0 when it may try now. */
  retryAfterSeconds(ip: string): number {
    const window = this.current(throttleKeyOf(ip));
    if (!window || window.failures < AUTH_FAILURES_ALLOWED_PER_WINDOW) return 0;
    return Math.max(1, Math.ceil((window.startedAt + AUTH_THROTTLE_WINDOW_MS - this.clock.now().getTime()) / 1000));
  }

  recordFailure(ip: string): void {
    const key = throttleKeyOf(ip);
    const window = this.current(key);
    if (window) {
      window.failures += 1;
      return;
    }
    if (this.windows.size >= MAX_TRACKED_CLIENTS) this.evictExpired();
    if (this.windows.size >= MAX_TRACKED_CLIENTS) this.windows.delete(this.windows.keys().next().value as string);
    this.windows.set(key, { startedAt: this.clock.now().getTime(), failures: 1 });
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window && this.clock.now().getTime() - window.startedAt >= AUTH_THROTTLE_WINDOW_MS) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private evictExpired(): void {
    const now = this.clock.now().getTime();
    for (const [ip, window] of this.windows) {
      if (now - window.startedAt >= AUTH_THROTTLE_WINDOW_MS) this.windows.delete(ip);
    }
  }
}
